import { useState } from 'preact/hooks';
import { api, call } from '../api.js';
import { AuditTable } from '../components/audit-table.js';
import { Confirm, ErrorNotice, Link, Loading, SecretOnce, Section, Table } from '../components/common.js';
import { changesOf, fieldsOf, KeyForm } from '../components/key-form.js';
import { UsageChart } from '../components/usage-chart.js';
import { count, dateTime } from '../format.js';
import { useLoad } from '../load.js';
import { navigate } from '../router.js';
import { keyState, loadAccounts, loadBans } from './shared.js';

const DEFAULT_OVERLAP_SECONDS = 3600;

/** One key: its settings, live windows, ban, usage and audit trail, and what an admin does to it. */
export function KeyDetailPage({ keyId }: { keyId: number }) {
  const path = { params: { path: { keyId } } };
  const loaded = useLoad(async () => {
    const [key, accounts, bans] = await Promise.all([
      call(api.GET('/admin/api-keys/{keyId}', path)),
      loadAccounts(),
      loadBans(),
    ]);
    return { key, accounts, bans };
  }, [keyId]);
  const windows = useLoad(() => call(api.GET('/admin/api-keys/{keyId}/rate-limit', path)), [keyId]);
  const usage = useLoad(() => call(api.GET('/admin/api-keys/{keyId}/usage', path)), [keyId]);
  const audit = useLoad(
    () =>
      call(
        api.GET('/admin/audit-log', {
          params: { query: { targetType: 'api_key', targetId: String(keyId), limit: 50 } },
        }),
      ),
    [keyId],
  );
  const [actionError, setActionError] = useState<unknown>();
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const [rolled, setRolled] = useState<{ key: string; previousKeyExpiresAt: string } | null>(null);
  const [overlap, setOverlap] = useState(String(DEFAULT_OVERLAP_SECONDS));
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const refresh = () => {
    loaded.reload();
    windows.reload();
    audit.reload();
  };
  const act = (what: string, action: () => Promise<unknown>) => {
    setBusy(true);
    setActionError(undefined);
    setDone('');
    action()
      .then(() => {
        setDone(what);
        refresh();
      })
      .catch(setActionError)
      .finally(() => setBusy(false));
  };
  const { data } = loaded;
  if (!data) {
    return (
      <>
        <Loading when={loaded.loading} />
        <ErrorNotice error={loaded.error} />
      </>
    );
  }
  const { key, accounts, bans } = data;
  const state = keyState(key, bans);
  const bannedUntil = windows.data?.bannedUntil;
  const rolling = key.previousKeyExpiresAt !== undefined && Date.parse(key.previousKeyExpiresAt) > Date.now();
  return (
    <>
      <p class="lead">
        <strong>{key.name}</strong> <span class="mono">{key.prefix}…</span> · {key.plan} ·{' '}
        <span class={`state state-${state}`}>{state}</span>
        {key.accountId !== null && (
          <>
            {' '}
            · account{' '}
            <Link to={`/accounts/${key.accountId}`}>
              {accounts.find((a) => a.id === key.accountId)?.name ?? key.accountId}
            </Link>
          </>
        )}
      </p>
      <p role="status" class="notice ok" hidden={done === ''}>
        {done}
      </p>
      <ErrorNotice error={actionError} />
      <div class="columns">
        <Section title="Live windows">
          <ErrorNotice error={windows.error} />
          {windows.data && (
            <Table caption="The key's rate-limit windows now">
              <thead>
                <tr>
                  <th scope="col">Window</th>
                  <th scope="col">Limit</th>
                  <th scope="col">Remaining</th>
                  <th scope="col">Resets</th>
                </tr>
              </thead>
              <tbody>
                {windows.data.windows.map((window) => (
                  <tr key={window.name}>
                    <td>{window.name}</td>
                    <td>{count(window.limit)}</td>
                    <td>{count(window.remaining)}</td>
                    <td>{new Date(window.reset * 1000).toLocaleTimeString()}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          <button type="button" onClick={windows.reload}>
            Refresh the windows
          </button>
        </Section>
        <Section title="Ban">
          {bannedUntil !== undefined ? (
            <>
              <p>Banned until {new Date(bannedUntil * 1000).toLocaleString()} for ignoring 429s.</p>
              <button
                type="button"
                disabled={busy}
                onClick={() => act('The ban is lifted.', () => call(api.POST('/admin/api-keys/{keyId}/unban', path)))}
              >
                Lift the ban
              </button>
            </>
          ) : (
            <p>Not banned.</p>
          )}
        </Section>
      </div>
      <Section title="Usage, last 30 days">
        <ErrorNotice error={usage.error} />
        {usage.data && <UsageChart title={key.name} days={usage.data} />}
      </Section>
      {!key.revokedAt && (
        <>
          <Section title="Edit">
            <KeyForm
              key={`${key.id}:${key.plan}:${key.scopes.join()}:${key.expiresAt}:${key.accountId}:${key.allowedAddresses?.join()}`}
              idPrefix="edit-key"
              initial={fieldsOf(key)}
              accounts={accounts}
              withName={false}
              submitLabel="Save the changes"
              busy={busy}
              onSubmit={(fields) =>
                act('The key is saved.', () =>
                  call(api.PATCH('/admin/api-keys/{keyId}', { ...path, body: changesOf(fieldsOf(key), fields) })),
                )
              }
            />
          </Section>
          <Section title="Roll the secret">
            {rolled ? (
              <>
                <p>The previous secret keeps working until {dateTime(rolled.previousKeyExpiresAt)}.</p>
                <SecretOnce secret={rolled.key} onDone={() => setRolled(null)} />
              </>
            ) : (
              <form
                class="row"
                onSubmit={(event) => {
                  event.preventDefault();
                  act('The key is rolled.', async () => {
                    const result = await call(
                      api.POST('/admin/api-keys/{keyId}/roll', { ...path, body: { overlapSeconds: Number(overlap) } }),
                    );
                    setRolled({ key: result.key, previousKeyExpiresAt: result.previousKeyExpiresAt });
                  });
                }}
              >
                <label for="overlap">Overlap (seconds the previous secret keeps working)</label>
                <input
                  id="overlap"
                  type="number"
                  min={0}
                  required
                  value={overlap}
                  onInput={(e) => setOverlap(e.currentTarget.value)}
                />
                <button type="submit" disabled={busy}>
                  Roll the key
                </button>
              </form>
            )}
            {rolling && (
              <>
                <p>
                  The previous secret works until {dateTime(key.previousKeyExpiresAt)}; last used{' '}
                  {key.previousKeyLastUsedAt ? dateTime(key.previousKeyLastUsedAt) : 'never since the roll'}.
                </p>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    act('The previous secret no longer works.', () =>
                      call(api.POST('/admin/api-keys/{keyId}/roll/end-overlap', path)),
                    )
                  }
                >
                  End the overlap now
                </button>
              </>
            )}
          </Section>
          <Section title="Revoke">
            <p>Requests with a revoked key are refused at once. This cannot be undone.</p>
            <button type="button" class="danger" disabled={busy} onClick={() => setConfirmRevoke(true)}>
              Revoke the key…
            </button>
            <Confirm
              open={confirmRevoke}
              title={`Revoke the key “${key.name}”?`}
              confirmLabel={`Revoke “${key.name}”`}
              onCancel={() => setConfirmRevoke(false)}
              onConfirm={() => {
                setConfirmRevoke(false);
                act('The key is revoked.', () => call(api.DELETE('/admin/api-keys/{keyId}', path)));
              }}
            >
              <p>
                Key <strong>{key.name}</strong> (<span class="mono">{key.prefix}…</span>, id {key.id}) will be refused
                from now on, with every secret it has.
              </p>
            </Confirm>
          </Section>
        </>
      )}
      <Section title="Audit trail">
        <ErrorNotice error={audit.error} />
        {audit.data && <AuditTable entries={audit.data} caption="Changes to this key" />}
      </Section>
      <p>
        <button type="button" onClick={() => navigate('/keys')}>
          Back to the keys
        </button>
      </p>
    </>
  );
}
