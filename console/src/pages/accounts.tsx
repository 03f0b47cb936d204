import { useState } from 'preact/hooks';
import { api, call } from '../api.js';
import { accountChangesOf, accountFieldsOf, AccountForm, newAccountOf } from '../components/account-form.js';
import { ErrorNotice, Link, Loading, Section, Table } from '../components/common.js';
import { UsageChart } from '../components/usage-chart.js';
import { dateTime } from '../format.js';
import { useLoad } from '../load.js';
import { KeysTable } from './keys.js';
import { keyState, loadAccounts, loadBans, loadKeys } from './shared.js';

/** Every account, and the form that creates one. */
export function AccountsPage() {
  const loaded = useLoad(loadAccounts, []);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [round, setRound] = useState(0);
  const [created, setCreated] = useState('');
  return (
    <>
      <Section title="Create an account">
        <AccountForm
          key={round}
          idPrefix="new-account"
          initial={accountFieldsOf()}
          submitLabel="Create the account"
          busy={busy}
          onSubmit={(fields) => {
            setBusy(true);
            setError(undefined);
            call(api.POST('/admin/accounts', { body: newAccountOf(fields) }))
              .then((account) => {
                setCreated(`Account ${account.name} is created.`);
                setRound((n) => n + 1);
                loaded.reload();
              })
              .catch(setError)
              .finally(() => setBusy(false));
          }}
        />
        <p role="status">{created}</p>
        <ErrorNotice error={error} />
      </Section>
      <Section title="All accounts">
        <Loading when={loaded.loading && !loaded.data} />
        <ErrorNotice error={loaded.error} />
        {loaded.data && (
          <Table caption="Accounts">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Plan</th>
                <th scope="col">External id</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.map((account) => (
                <tr key={account.id}>
                  <td>
                    <Link to={`/accounts/${account.id}`}>{account.name}</Link>
                  </td>
                  <td>{account.plan}</td>
                  <td>{account.externalId ?? '—'}</td>
                  <td>{dateTime(account.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>
    </>
  );
}

/** One account: its settings, its keys, and the usage they share. */
export function AccountDetailPage({ accountId }: { accountId: number }) {
  const path = { params: { path: { accountId } } };
  const loaded = useLoad(async () => {
    const [account, keys, bans, accounts] = await Promise.all([
      call(api.GET('/admin/accounts/{accountId}', path)),
      loadKeys(accountId),
      loadBans(),
      loadAccounts(),
    ]);
    return { account, keys, bans, accounts };
  }, [accountId]);
  const usage = useLoad(() => call(api.GET('/admin/accounts/{accountId}/usage', path)), [accountId]);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState('');
  const [busy, setBusy] = useState(false);
  const { data } = loaded;
  if (!data) {
    return (
      <>
        <Loading when={loaded.loading} />
        <ErrorNotice error={loaded.error} />
      </>
    );
  }
  const { account, keys, bans, accounts } = data;
  return (
    <>
      <p class="lead">
        <strong>{account.name}</strong> · {account.plan}
        {account.limits && ` (${account.limits.perMinute}/min, ${account.limits.perDay}/day)`} · created{' '}
        {dateTime(account.createdAt)}
      </p>
      <Section title="Shared usage, last 30 days">
        <ErrorNotice error={usage.error} />
        {usage.data && <UsageChart title={`Account ${account.name}`} days={usage.data} />}
      </Section>
      <Section title="Its keys">
        {keys.length === 0 ? (
          <p>No key is in this account yet: a key's edit form puts it in one.</p>
        ) : (
          <KeysTable
            keys={keys}
            accountName={(id) => accounts.find((a) => a.id === id)?.name ?? '—'}
            state={(key) => keyState(key, bans)}
          />
        )}
      </Section>
      <Section title="Edit">
        <AccountForm
          key={`${account.name}:${account.plan}:${account.externalId}`}
          idPrefix="edit-account"
          initial={accountFieldsOf(account)}
          submitLabel="Save the changes"
          busy={busy}
          onSubmit={(fields) => {
            setBusy(true);
            setError(undefined);
            setSaved('');
            call(
              api.PATCH('/admin/accounts/{accountId}', {
                ...path,
                body: accountChangesOf(accountFieldsOf(account), fields),
              }),
            )
              .then(() => {
                setSaved('The account is saved.');
                loaded.reload();
              })
              .catch(setError)
              .finally(() => setBusy(false));
          }}
        />
        <p role="status">{saved}</p>
        <ErrorNotice error={error} />
      </Section>
    </>
  );
}
