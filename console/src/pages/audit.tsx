import { useState } from 'preact/hooks';
import { api, call, nextCursor } from '../api.js';
import { AuditTable } from '../components/audit-table.js';
import { ErrorNotice, Loading } from '../components/common.js';
import { useLoad } from '../load.js';

const ACTIONS = [
  'api_key.created',
  'api_key.updated',
  'api_key.rolled',
  'api_key.overlap_ended',
  'api_key.revoked',
  'api_key.unbanned',
  'account.created',
  'account.updated',
  'account.deleted',
  'address.unbanned',
  'plans.reloaded',
];
const PAGE_SIZE = 25;

interface Filters {
  action: string;
  targetType: string;
  targetId: string;
  actorKeyId: string;
}
const NO_FILTERS: Filters = { action: '', targetType: '', targetId: '', actorKeyId: '' };

/** The audit trail, newest first, filtered by action, target and actor, a page at a time. */
export function AuditPage() {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // The cursors of the pages shown so far: the last is this page's (undefined: the first page).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const loaded = useLoad(async () => {
    const query = {
      limit: PAGE_SIZE,
      cursor,
      ...(filters.action ? { action: filters.action } : {}),
      ...(filters.targetType ? { targetType: filters.targetType } : {}),
      ...(filters.targetId ? { targetId: filters.targetId } : {}),
      ...(filters.actorKeyId ? { actorKeyId: Number(filters.actorKeyId) } : {}),
    };
    const outcome = await api.GET('/admin/audit-log', { params: { query } });
    return { entries: await call(Promise.resolve(outcome)), next: nextCursor(outcome.response) };
  }, [filters, cursor]);
  const set = (name: keyof Filters, value: string) => setDraft({ ...draft, [name]: value });
  return (
    <>
      <form
        class="form-grid filters"
        aria-label="Filter the audit log"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(draft);
          setCursors([undefined]);
        }}
      >
        <div class="field">
          <label for="audit-action">Action</label>
          <input
            id="audit-action"
            list="audit-actions"
            value={draft.action}
            onInput={(e) => set('action', e.currentTarget.value)}
          />
          <datalist id="audit-actions">
            {ACTIONS.map((action) => (
              <option key={action} value={action} />
            ))}
          </datalist>
        </div>
        <div class="field">
          <label for="audit-target-type">Target type</label>
          <select
            id="audit-target-type"
            value={draft.targetType}
            onChange={(e) => set('targetType', e.currentTarget.value)}
          >
            <option value="">Any</option>
            <option value="api_key">API key</option>
            <option value="account">Account</option>
            <option value="address">Address</option>
            <option value="plans">Plan table</option>
          </select>
        </div>
        <div class="field">
          <label for="audit-target-id">Target id</label>
          <input id="audit-target-id" value={draft.targetId} onInput={(e) => set('targetId', e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="audit-actor">Done by key (id)</label>
          <input
            id="audit-actor"
            inputMode="numeric"
            pattern="[0-9]*"
            value={draft.actorKeyId}
            onInput={(e) => set('actorKeyId', e.currentTarget.value)}
          />
        </div>
        <div class="actions">
          <button type="submit">Filter</button>
          <button
            type="button"
            onClick={() => {
              setDraft(NO_FILTERS);
              setFilters(NO_FILTERS);
              setCursors([undefined]);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <Loading when={loaded.loading && !loaded.data} />
      <ErrorNotice error={loaded.error} />
      {loaded.data && <AuditTable entries={loaded.data.entries} caption="Audit log entries, newest first" />}
      <nav class="pager" aria-label="Pages of the audit log">
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>
        <span>Page {cursors.length}</span>
        <button
          type="button"
          disabled={!loaded.data?.next}
          onClick={() => loaded.data?.next && setCursors([...cursors, loaded.data.next])}
        >
          Older
        </button>
      </nav>
    </>
  );
}
