import { useState } from 'preact/hooks';
import { api, type Ban, call } from '../api.js';
import { ErrorNotice, Link, Loading, Table } from '../components/common.js';
import { dateTime } from '../format.js';
import { useLoad } from '../load.js';
import { loadBans } from './shared.js';

function lift(ban: Ban): Promise<unknown> {
  if (ban.kind === 'key' && ban.keyId !== undefined) {
    return call(api.POST('/admin/api-keys/{keyId}/unban', { params: { path: { keyId: ban.keyId } } }));
  }
  return call(api.DELETE('/admin/bans/addresses', { params: { query: { address: ban.address ?? '' } } }));
}

/** Keys and addresses banned now, each with its lift button. */
export function BansPage() {
  const loaded = useLoad(loadBans, []);
  const [error, setError] = useState<unknown>();
  const [lifted, setLifted] = useState('');
  const name = (ban: Ban) => (ban.kind === 'key' ? `key ${ban.keyId}` : `address ${ban.address}`);
  return (
    <>
      <Loading when={loaded.loading && !loaded.data} />
      <ErrorNotice error={loaded.error ?? error} />
      <p role="status">{lifted}</p>
      {loaded.data &&
        (loaded.data.length === 0 ? (
          <p>Nobody is banned now.</p>
        ) : (
          <Table caption="Bans in force">
            <thead>
              <tr>
                <th scope="col">Who</th>
                <th scope="col">Why</th>
                <th scope="col">Until</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.map((ban) => (
                <tr key={name(ban)}>
                  <td>{ban.kind === 'key' ? <Link to={`/keys/${ban.keyId}`}>{name(ban)}</Link> : name(ban)}</td>
                  <td>
                    {ban.cause === 'ignored_429s'
                      ? 'kept sending after 429s'
                      : `blocked route${ban.limit ? ` (${ban.limit})` : ''}`}
                  </td>
                  <td>{dateTime(ban.until)}</td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Lift the ban of ${name(ban)}`}
                      onClick={() => {
                        setError(undefined);
                        lift(ban)
                          .then(() => {
                            setLifted(`The ban of ${name(ban)} is lifted.`);
                            loaded.reload();
                          })
                          .catch(setError);
                      }}
                    >
                      Lift
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        ))}
      <button type="button" onClick={loaded.reload}>
        Refresh
      </button>
    </>
  );
}
