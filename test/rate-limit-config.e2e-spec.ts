import { ConfigError, loadAppConfig } from '../src/config/app.config.js';

/** The rate-limit settings of the environment (docs/rate-limits.md), parsed and validated at start-up. */
describe('rate-limit configuration', () => {
  it('defaults: the shipped plans file, memory counters, fail open, 3 × per-minute and 15 minutes for bans', () => {
    expect(loadAppConfig({}).rateLimit).toEqual({
      enabled: true,
      plansFile: 'config/plans.yaml',
      plansFileRequired: false,
      planOverrides: {},
      plansWatchIntervalMs: 1_000,
      redisUrl: undefined,
      redisKeyPrefix: 'petstore:rl:',
      failOpen: true,
      banThresholdMultiplier: 3,
      banDurationSeconds: 900,
      maxAnonymousClients: 10_000,
    });
  });

  it('reads every variable', () => {
    const config = loadAppConfig({
      RATE_LIMIT_ENABLED: 'false',
      PLANS_FILE: '/etc/petstore/plans.yaml',
      PLAN_FREE_PER_MINUTE: '30',
      PLAN_PRO_PER_DAY: '20000',
      PLAN_BUSINESS_PER_MINUTE: '2000',
      PLANS_WATCH_INTERVAL_MS: '0',
      REDIS_URL: 'redis://cache:6379/2',
      RATE_LIMIT_REDIS_PREFIX: 'shop:',
      RATE_LIMIT_FAIL_OPEN: 'false',
      BAN_THRESHOLD_MULTIPLIER: '5',
      BAN_DURATION_SECONDS: '60',
      RATE_LIMIT_MAX_ANONYMOUS_CLIENTS: '1000',
    }).rateLimit;
    expect(config).toEqual({
      enabled: false,
      plansFile: '/etc/petstore/plans.yaml',
      plansFileRequired: true,
      planOverrides: { free: { perMinute: 30 }, pro: { perDay: 20_000 }, business: { perMinute: 2_000 } },
      plansWatchIntervalMs: 0,
      redisUrl: 'redis://cache:6379/2',
      redisKeyPrefix: 'shop:',
      failOpen: false,
      banThresholdMultiplier: 5,
      banDurationSeconds: 60,
      maxAnonymousClients: 1_000,
    });
  });

  it.each([
    ['PLAN_FREE_PER_MINUTE', 'lots'],
    ['PLAN_PRO_PER_DAY', '0'],
    ['PLAN_BUSINESS_PER_DAY', '9999999999'],
    ['RATE_LIMIT_FAIL_OPEN', 'maybe'],
    ['BAN_THRESHOLD_MULTIPLIER', '-1'],
    ['BAN_DURATION_SECONDS', '1.5'],
    ['PLANS_WATCH_INTERVAL_MS', 'soon'],
    ['RATE_LIMIT_MAX_ANONYMOUS_CLIENTS', '0'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadAppConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadAppConfig({ [name]: value })).toThrow(name);
  });
});
