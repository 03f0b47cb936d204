/**
 * The one server-side script run per request (loaded once, invoked by SHA).
 * It is `applyHit` (fixed-window.ts) over Redis keys whose TTLs are the windows,
 * so every instance sees the same counters and the check-and-count is atomic.
 *
 * KEYS: the n window counters, then the rejection counter, then the ban marker;
 *       all carry the client's `{…}` hash tag, so they share one cluster slot.
 * ARGV: n, consume (1|0), ban threshold (-1: no bans), ban ms, rejection window ms,
 *       then limit and length (ms) of each window.
 * Reply: outcome (0 allowed, 1 limited, 2 banned, 3 banned by this request), Redis time (ms), ban TTL (ms),
 *        then count and TTL (ms, -1 when the window is not open) of each window.
 */
export const HIT_SCRIPT = `
local n = tonumber(ARGV[1])
local consume = ARGV[2] == '1'
local threshold = tonumber(ARGV[3])
local banMs = tonumber(ARGV[4])
local rejectionMs = tonumber(ARGV[5])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local counts, ttls, full = {}, {}, false
for i = 1, n do
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl <= 0 then count = 0; ttl = -1 end
  counts[i] = count
  ttls[i] = ttl
  if count >= tonumber(ARGV[4 + 2 * i]) then full = true end
end
local function reply(outcome, banTtl)
  local out = {outcome, now, banTtl}
  for i = 1, n do
    out[#out + 1] = counts[i]
    out[#out + 1] = ttls[i]
  end
  return out
end
local banTtl = redis.call('PTTL', KEYS[n + 2])
if banTtl > 0 then return reply(2, banTtl) end
if not consume then return reply(full and 1 or 0, -1) end
if full then
  if threshold >= 0 then
    local rejected = redis.call('INCR', KEYS[n + 1])
    if rejected == 1 then redis.call('PEXPIRE', KEYS[n + 1], rejectionMs) end
    if rejected > threshold then
      redis.call('SET', KEYS[n + 2], '1', 'PX', banMs)
      redis.call('DEL', KEYS[n + 1])
      return reply(3, banMs)
    end
  end
  return reply(1, -1)
end
for i = 1, n do
  if ttls[i] < 0 then
    local length = tonumber(ARGV[5 + 2 * i])
    redis.call('SET', KEYS[i], '1', 'PX', length)
    counts[i] = 1
    ttls[i] = length
  else
    counts[i] = redis.call('INCR', KEYS[i])
  end
end
return reply(0, -1)
`;

/**
 * Takes back one request (a conditional GET answered 304 is not charged): each window
 * key loses one count if it is still the window that counted it, i.e. it ends where
 * the hit said (within a second: a later window of the same key ends at least a
 * window's length later). A window that has ended or restarted is left alone.
 *
 * KEYS: the window counters of one client. ARGV: the end (ms since the epoch) of each, as the hit reported it.
 */
export const REFUND_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
for i = 1, #KEYS do
  local ends = tonumber(ARGV[i])
  local ttl = redis.call('PTTL', KEYS[i])
  if ends > 0 and ttl > 0 and math.abs(now + ttl - ends) < 1000 then
    if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
  end
end
return 0
`;
