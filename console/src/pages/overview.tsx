import { allPages, api, lastDays, type Outcome, type UsageRow, utcDay } from '../api.js';
import { ErrorNotice, Link, Loading, Section, Table } from '../components/common.js';
import { perDay, UsageChart } from '../components/usage-chart.js';
import { count, dateTime, percent } from '../format.js';
import { useLoad } from '../load.js';
import { dailyQuota, loadAccounts, loadBans, loadKeys, loadPlans } from './shared.js';

const TOP = 5;

/** Every key's rows of the range (an export's large pages), as JSON (the operation also speaks CSV). */
function loadUsage(from: string, to: string): Promise<UsageRow[]> {
  return allPages(
    (cursor) =>
      api.GET('/admin/usage', {
        params: { query: { from, to, limit: 1000, cursor } },
        headers: { Accept: 'application/json' },
      }) as Promise<Outcome<UsageRow[]>>,
    20,
  );
}

/** Requests and refusals of the last 30 days, who is closest to today's quota, and who is banned now. */
export function OverviewPage() {
  const range = lastDays(30);
  const loaded = useLoad(async () => {
    const [rows, keys, accounts, plans, bans] = await Promise.all([
      loadUsage(range.from, range.to),
      loadKeys(),
      loadAccounts(),
      loadPlans(),
      loadBans(),
    ]);
    return { rows, keys, accounts, plans, bans };
  }, [range.to]);
  const { data } = loaded;
  const today = utcDay(new Date());
  const usedToday = (select: (row: UsageRow) => number | null) => {
    const used = new Map<number, number>();
    for (const row of data?.rows ?? []) {
      const id = select(row);
      if (row.date === today && id !== null) used.set(id, (used.get(id) ?? 0) + row.requests);
    }
    return used;
  };
  const keysUsed = usedToday((row) => row.keyId);
  const accountsUsed = usedToday((row) => row.accountId);
  const closest = <T extends { id: number; plan: string; limits?: { perMinute: number; perDay: number } }>(
    owners: readonly T[],
    used: Map<number, number>,
  ) =>
    owners
      .map((owner) => ({ owner, used: used.get(owner.id) ?? 0, quota: dailyQuota(owner, data?.plans ?? []) }))
      .filter((entry) => entry.used > 0 && entry.quota !== undefined)
      .sort((a, b) => b.used / (b.quota ?? 1) - a.used / (a.quota ?? 1))
      .slice(0, TOP);
  return (
    <>
      <Loading when={loaded.loading && !data} />
      <ErrorNotice error={loaded.error} />
      {data && (
        <>
          <Section title="Traffic, last 30 days">
            <UsageChart title="All keys" days={perDay(data.rows, range.from, range.to)} />
          </Section>
          <div class="columns">
            <Section title="Keys closest to their daily quota">
              <QuotaTable
                caption="Keys closest to their daily quota"
                entries={closest(
                  data.keys.filter((key) => !key.revokedAt),
                  keysUsed,
                ).map(({ owner, used, quota }) => ({ to: `/keys/${owner.id}`, name: owner.name, used, quota }))}
              />
            </Section>
            <Section title="Accounts closest to their daily quota">
              <QuotaTable
                caption="Accounts closest to their daily quota"
                entries={closest(data.accounts, accountsUsed).map(({ owner, used, quota }) => ({
                  to: `/accounts/${owner.id}`,
                  name: owner.name,
                  used,
                  quota,
                }))}
              />
            </Section>
          </div>
          <Section title="Banned now">
            {data.bans.length === 0 ? (
              <p>Nobody is banned.</p>
            ) : (
              <ul>
                {data.bans.map((ban) => (
                  <li key={`${ban.kind}:${ban.keyId ?? ban.address}`}>
                    {ban.kind === 'key' ? (
                      <Link to={`/keys/${ban.keyId}`}>Key {ban.keyId}</Link>
                    ) : (
                      <span>Address {ban.address}</span>
                    )}{' '}
                    until {dateTime(ban.until)}
                  </li>
                ))}
              </ul>
            )}
            <Link to="/bans">All bans</Link>
          </Section>
        </>
      )}
    </>
  );
}

function QuotaTable({
  caption,
  entries,
}: {
  caption: string;
  entries: readonly { to: string; name: string; used: number; quota: number | undefined }[];
}) {
  if (entries.length === 0) return <p>No traffic today.</p>;
  return (
    <Table caption={caption}>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Today</th>
          <th scope="col">Daily quota</th>
          <th scope="col">Used</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.to}>
            <td>
              <Link to={entry.to}>{entry.name}</Link>
            </td>
            <td>{count(entry.used)}</td>
            <td>{entry.quota === undefined ? '—' : count(entry.quota)}</td>
            <td>
              <meter
                min={0}
                max={1}
                value={entry.used / (entry.quota ?? 1)}
                aria-label={`${entry.name}: share of the daily quota used`}
              />{' '}
              {percent(entry.used / (entry.quota ?? 1))}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
