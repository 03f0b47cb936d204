import { useState } from 'preact/hooks';
import { api, type ApiKey, call } from '../api.js';
import { ErrorNotice, Link, Loading, SecretOnce, Section, Table } from '../components/common.js';
import { fieldsOf, KeyForm, newKeyOf } from '../components/key-form.js';
import { dateTime } from '../format.js';
import { useLoad } from '../load.js';
import { keyState, loadAccounts, loadBans, loadKeys } from './shared.js';

const PAGE_SIZE = 20;

/** Every key in a table searched and paged here (the API lists them by id), and the form that issues one. */
export function KeysPage() {
  const loaded = useLoad(async () => {
    const [keys, accounts, bans] = await Promise.all([loadKeys(), loadAccounts(), loadBans()]);
    return { keys, accounts, bans };
  }, []);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [issued, setIssued] = useState<{ id: number; name: string; key: string } | null>(null);
  const [createError, setCreateError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [formRound, setFormRound] = useState(0);
  const { data } = loaded;
  const accountName = (id: number | null) => data?.accounts.find((account) => account.id === id)?.name ?? '—';
  const needle = search.trim().toLowerCase();
  const matching = (data?.keys ?? []).filter(
    (key) =>
      needle === '' ||
      [key.name, key.prefix, key.plan, String(key.id), accountName(key.accountId), keyState(key, data?.bans ?? [])]
        .join(' ')
        .toLowerCase()
        .includes(needle),
  );
  const pages = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
  const shown = matching.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
  return (
    <>
      <Section title="Issue a key">
        {issued ? (
          <>
            <p role="status">
              Key <Link to={`/keys/${issued.id}`}>{issued.name}</Link> is issued.
            </p>
            <SecretOnce
              secret={issued.key}
              onDone={() => {
                setIssued(null);
                setFormRound((n) => n + 1);
              }}
            />
          </>
        ) : (
          <KeyForm
            key={formRound}
            idPrefix="new-key"
            initial={fieldsOf()}
            accounts={data?.accounts ?? []}
            withName
            submitLabel="Issue the key"
            busy={busy}
            onSubmit={(fields) => {
              setBusy(true);
              setCreateError(undefined);
              call(api.POST('/admin/api-keys', { body: newKeyOf(fields) }))
                .then((created) => {
                  setIssued({ id: created.id, name: created.name, key: created.key });
                  loaded.reload();
                })
                .catch(setCreateError)
                .finally(() => setBusy(false));
            }}
          />
        )}
        <ErrorNotice error={createError} />
      </Section>
      <Section title="All keys">
        <div class="field">
          <label for="key-search">Search keys (name, prefix, plan, account, state)</label>
          <input
            id="key-search"
            type="search"
            value={search}
            onInput={(e) => {
              setSearch(e.currentTarget.value);
              setPage(0);
            }}
          />
        </div>
        <Loading when={loaded.loading && !data} />
        <ErrorNotice error={loaded.error} />
        {data && (
          <>
            <p class="muted" role="status">
              {matching.length} of {data.keys.length} keys
            </p>
            <KeysTable keys={shown} accountName={accountName} state={(key) => keyState(key, data.bans)} />
            <nav class="pager" aria-label="Pages of keys">
              <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous page
              </button>
              <span>
                Page {page + 1} of {pages}
              </span>
              <button type="button" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
                Next page
              </button>
            </nav>
          </>
        )}
      </Section>
    </>
  );
}

export function KeysTable({
  keys,
  accountName,
  state,
}: {
  keys: readonly ApiKey[];
  accountName: (id: number | null) => string;
  state: (key: ApiKey) => string;
}) {
  return (
    <Table caption="API keys">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Plan</th>
          <th scope="col">Account</th>
          <th scope="col">Scopes</th>
          <th scope="col">Last used</th>
          <th scope="col">Expires</th>
          <th scope="col">State</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id}>
            <td>
              <Link to={`/keys/${key.id}`}>{key.name}</Link> <span class="mono muted">{key.prefix}</span>
            </td>
            <td>{key.plan}</td>
            <td>
              {key.accountId === null ? (
                '—'
              ) : (
                <Link to={`/accounts/${key.accountId}`}>{accountName(key.accountId)}</Link>
              )}
            </td>
            <td>{key.scopes.join(', ')}</td>
            <td>{dateTime(key.lastUsedAt)}</td>
            <td>{dateTime(key.expiresAt)}</td>
            <td>
              <span class={`state state-${state(key)}`}>{state(key)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
