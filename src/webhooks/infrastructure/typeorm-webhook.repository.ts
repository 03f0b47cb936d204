import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { fromInt8, managerOf } from '../../database/index.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { WebhookRepository } from '../domain/ports.js';
import type { SigningSecrets } from '../domain/signing-secrets.js';
import type { StoreEventType } from '../domain/store-event.js';
import type { NewWebhook, Webhook, WebhookPatch } from '../domain/webhook.js';

interface WebhookRow {
  id: string;
  api_key_id: string;
  url: string;
  events: StoreEventType[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, api_key_id, url, events, description, enabled, disabled_reason, failing_since, created_at';

const toWebhook = (row: WebhookRow): Webhook => ({
  id: fromInt8(row.id),
  ownerKeyId: fromInt8(row.api_key_id),
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  failingSince: row.failing_since,
  createdAt: row.created_at,
});

/** An endpoint's signing secrets, of the `webhooks` table aliased `w`: read as {@link SecretColumns}. */
export const SECRET_COLUMNS = 'w.secret_sealed, w.previous_secret_sealed, w.previous_secret_expires_at';

export interface SecretColumns {
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
}

export function signingSecretsOf(row: SecretColumns): SigningSecrets {
  const { secret_sealed: current, previous_secret_sealed: sealed, previous_secret_expires_at: expiresAt } = row;
  return { current, previous: sealed !== null && expiresAt !== null ? { sealed, expiresAt } : null };
}

/** Endpoints over the `webhooks` table; the secrets are read only to be rotated (and by the dispatcher). */
@Injectable()
export class TypeOrmWebhookRepository implements WebhookRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  async countForCreation(ownerKeyId: number, tx: Transaction): Promise<number> {
    // A per-key lock until commit, so that two concurrent creations cannot both pass the limit.
    await managerOf(tx).query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks:' || $1::bigint, 0))`, [
      ownerKeyId,
    ]);
    const [row] = await managerOf(tx).query<Array<{ count: string }>>(
      `SELECT count(*) AS count FROM webhooks WHERE api_key_id = $1`,
      [ownerKeyId],
    );
    return Number(row.count);
  }

  async insert(ownerKeyId: number, webhook: NewWebhook, sealedSecret: string, tx: Transaction): Promise<Webhook> {
    // after_event_id: the endpoint receives the events committed after it (ids follow commit order).
    const [row] = await managerOf(tx).query<WebhookRow[]>(
      `INSERT INTO webhooks (api_key_id, url, events, description, secret_sealed, after_event_id)
       VALUES ($1, $2, $3, $4, $5, (SELECT COALESCE(max(id), 0) FROM events))
       RETURNING ${COLUMNS}`,
      [ownerKeyId, webhook.url, webhook.events, webhook.description ?? null, sealedSecret],
    );
    return toWebhook(row);
  }

  async find(ownerKeyId: number, id: number): Promise<Webhook | null> {
    const [row] = await this.db.query<WebhookRow[]>(
      `SELECT ${COLUMNS} FROM webhooks WHERE id = $1 AND api_key_id = $2`,
      [id, ownerKeyId],
    );
    return row ? toWebhook(row) : null;
  }

  async list(ownerKeyId: number, page: PageRequest): Promise<Page<Webhook>> {
    const rows = await this.db.query<WebhookRow[]>(
      `SELECT ${COLUMNS} FROM webhooks WHERE api_key_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
      [ownerKeyId, page.afterId ?? 0, page.limit + 1],
    );
    return toPage(rows.map(toWebhook), page.limit);
  }

  async update(ownerKeyId: number, id: number, patch: WebhookPatch): Promise<Webhook | null> {
    const [rows] = await this.db.query<[WebhookRow[], number]>(
      `UPDATE webhooks SET
         url = COALESCE($3, url),
         events = COALESCE($4, events),
         description = CASE WHEN $5 THEN $6 ELSE description END,
         enabled = COALESCE($7, enabled),
         disabled_reason = CASE WHEN $7 THEN NULL WHEN NOT $7 THEN 'disabled by its owner' ELSE disabled_reason END,
         failing_since = CASE WHEN $7 THEN NULL ELSE failing_since END
       WHERE id = $1 AND api_key_id = $2
       RETURNING ${COLUMNS}`,
      [
        id,
        ownerKeyId,
        patch.url ?? null,
        patch.events ?? null,
        patch.description !== undefined,
        patch.description ?? null,
        patch.enabled ?? null,
      ],
    );
    return rows[0] ? toWebhook(rows[0]) : null;
  }

  async remove(ownerKeyId: number, id: number): Promise<boolean> {
    const [, count] = await this.db.query<[unknown, number]>(`DELETE FROM webhooks WHERE id = $1 AND api_key_id = $2`, [
      id,
      ownerKeyId,
    ]);
    return count > 0;
  }

  async lockSecrets(ownerKeyId: number, id: number, tx: Transaction): Promise<SigningSecrets | null> {
    const [row] = await managerOf(tx).query<SecretColumns[]>(
      `SELECT ${SECRET_COLUMNS} FROM webhooks w WHERE w.id = $1 AND w.api_key_id = $2 FOR UPDATE`,
      [id, ownerKeyId],
    );
    return row ? signingSecretsOf(row) : null;
  }

  async saveSecrets(id: number, secrets: SigningSecrets, tx: Transaction): Promise<void> {
    await managerOf(tx).query(
      `UPDATE webhooks SET secret_sealed = $2, previous_secret_sealed = $3, previous_secret_expires_at = $4 WHERE id = $1`,
      [id, secrets.current, secrets.previous?.sealed ?? null, secrets.previous?.expiresAt ?? null],
    );
  }
}
