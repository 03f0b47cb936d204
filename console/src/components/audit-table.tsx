import type { AuditEntry } from '../api.js';
import { dateTime } from '../format.js';
import { Link, Table } from './common.js';

function actor(entry: AuditEntry) {
  if (entry.actor.type === 'api_key' && entry.actor.id !== undefined) {
    return <Link to={`/keys/${entry.actor.id}`}>key {entry.actor.id}</Link>;
  }
  return <span>{entry.actor.type}</span>;
}

function target(entry: AuditEntry) {
  const { type, id } = entry.target;
  if (type === 'api_key') return <Link to={`/keys/${id}`}>key {id}</Link>;
  if (type === 'account') return <Link to={`/accounts/${id}`}>account {id}</Link>;
  return <span>{id ? `${type} ${id}` : type}</span>;
}

/** A field's change as `before → after`. */
function changes(entry: AuditEntry): string {
  return Object.entries(entry.changes)
    .map(([field, values]) => `${field}: ${values.map((value) => JSON.stringify(value) ?? '—').join(' → ')}`)
    .join('; ');
}

export function AuditTable({ entries, caption }: { entries: readonly AuditEntry[]; caption: string }) {
  if (entries.length === 0) return <p>No entries.</p>;
  return (
    <Table caption={caption}>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Action</th>
          <th scope="col">Target</th>
          <th scope="col">By</th>
          <th scope="col">Changes</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td>{dateTime(entry.at)}</td>
            <td class="mono">{entry.action}</td>
            <td>{target(entry)}</td>
            <td>{actor(entry)}</td>
            <td class="changes">{changes(entry)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
