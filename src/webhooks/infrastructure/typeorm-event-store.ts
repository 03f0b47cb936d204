import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { fromInt8, managerOf } from '../../database/index.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { EventStore } from '../domain/ports.js';
import type { NewStoreEvent, StoreEvent, StoreEventData, StoreEventType } from '../domain/store-event.js';
import type { EventViewer } from '../domain/visibility.js';

/**
 * Serialises the outbox appends of concurrent transactions from their insert to
 * their commit (a transaction-level advisory lock), so that event ids become
 * visible in increasing order and a reader paging by `id > cursor` never skips
 * one that commits late. Why this and not xid8 snapshots:
 * docs/webhooks.md (Events).
 */
const OUTBOX_LOCK = [0x70657473, 0x6f757462] as const; // "pets", "outb"

/**
 * One statement per transaction, whatever its number of events ($1: their JSON
 * array), the transaction's last before its COMMIT (the outbox subscriber runs
 * once the use case is done): the advisory lock is held for one round trip.
 */
const APPEND = `INSERT INTO events (type, occurred_at, owner_key_id, data)
  SELECT e->>'type', (e->>'occurredAt')::timestamptz, (e->>'ownerKeyId')::bigint, e->'data'
  FROM (SELECT pg_advisory_xact_lock(${OUTBOX_LOCK[0]}, ${OUTBOX_LOCK[1]})) AS serialised,
       jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(e, n)
  ORDER BY t.n`;

interface EventRow {
  id: string;
  type: StoreEventType;
  occurred_at: Date;
  owner_key_id: string | null;
  data: StoreEventData;
}

const toEvent = (row: EventRow): StoreEvent => ({
  id: fromInt8(row.id),
  type: row.type,
  occurredAt: row.occurred_at,
  ownerKeyId: row.owner_key_id === null ? null : fromInt8(row.owner_key_id),
  data: row.data,
});

@Injectable()
export class TypeOrmEventStore implements EventStore {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  async append(events: readonly NewStoreEvent[], tx: Transaction): Promise<void> {
    if (events.length > 0) await managerOf(tx).query(APPEND, [JSON.stringify(events)]);
  }

  async page(
    viewer: EventViewer,
    types: readonly StoreEventType[] | null,
    page: PageRequest,
  ): Promise<Page<StoreEvent>> {
    const rows = await this.db.query<EventRow[]>(
      `SELECT id, type, occurred_at, owner_key_id, data FROM events
       WHERE id > $1 AND ($2::text[] IS NULL OR type = ANY($2))
         AND ($3 OR owner_key_id IS NULL OR owner_key_id = $4)
       ORDER BY id LIMIT $5`,
      [page.afterId ?? 0, types, viewer.admin, viewer.keyId, page.limit + 1],
    );
    return toPage(rows.map(toEvent), page.limit);
  }

  async sweep(before: Date): Promise<number> {
    await this.db.query(`DELETE FROM webhook_deliveries WHERE event_id IS NULL AND created_at < $1`, [before]);
    const [, count] = await this.db.query<[unknown, number]>(`DELETE FROM events WHERE created_at < $1`, [before]);
    return count;
  }

  async oldestUndeliveredAgeSeconds(): Promise<number> {
    const [row] = await this.db.query<Array<{ age: string | null }>>(
      `SELECT GREATEST(0, EXTRACT(EPOCH FROM now() - LEAST(
         (SELECT min(e.created_at) FROM events e WHERE e.id > (SELECT last_event_id FROM webhook_fanout WHERE id = 1)
            AND EXISTS (SELECT 1 FROM webhooks w WHERE w.enabled)),
         (SELECT min(d.first_due_at) FROM webhook_deliveries d WHERE d.status = 'pending')))) AS age`,
    );
    return row?.age ? Number(row.age) : 0;
  }
}
