import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { fromInt8, managerOf, toInt8 } from '../../database/index.js';
import type { PetStatus } from '../../pets/index.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import type { NewOrder, Order } from '../domain/order.js';
import { IDEMPOTENCY_RETENTION_MS } from '../domain/idempotency.js';
import type { OrderFilter, OrderRepository, PlacementPublishing, PlacementResult } from '../domain/order.repository.js';
import { fromStored, OrderMapper, type StoredOutcome } from './order.mapper.js';
import { OrderOrmEntity } from './order.orm-entity.js';

/**
 * Places an order through the `orders_place` function (migration
 * PlaceOrderPublished): $1 pet id, $2 units, $3 ship date, $4 owner key id, $5
 * time of its events, $6 Idempotency-Key, $7 request hash, $8 the bound before
 * which a key's record has expired (null key: none). Claims the key or replays its
 * record, locks the pet's inventory line, places the order when the rule allows it,
 * appends its events to the outbox and stores the outcome under the key. One round
 * trip, so the line is held for the COMMIT that follows and nothing else; or,
 * outside a transaction, only inside PostgreSQL.
 */
const PLACE_FROM_STOCK = `SELECT line_quantity, line_status, order_id::text, replay_hash, replay_outcome
  FROM orders_place($1, $2, $3, $4, $5, $6, $7, $8)`;

/** The row of {@link PLACE_FROM_STOCK}: the line before (null: none), the new order's id (null: nothing taken), or a replay. */
interface PlaceFromStockRow {
  readonly line_quantity: number | null;
  readonly line_status: PetStatus | null;
  readonly order_id: string | null;
  readonly replay_hash: string | null;
  readonly replay_outcome: StoredOutcome | null;
}

/** An orders row as RETURNING gives it. */
interface OrderRow {
  readonly id: string;
  readonly pet_id: string;
  readonly quantity: number;
  readonly ship_date: Date | null;
  readonly complete: boolean;
  readonly owner_key_id: string;
}

/** Orders over TypeORM; writes in the given transaction. */
@Injectable()
export class TypeOrmOrderRepository implements OrderRepository {
  constructor(@InjectRepository(OrderOrmEntity) private readonly rows: Repository<OrderOrmEntity>) {}

  async findById(id: number, tx?: Transaction): Promise<Order | null> {
    const rows = tx ? managerOf(tx).getRepository(OrderOrmEntity) : this.rows;
    const row = await rows.findOneBy({ id: toInt8(id) });
    return row && OrderMapper.toDomain(row);
  }

  async findPage(filter: OrderFilter, { limit, afterId }: PageRequest): Promise<Page<Order>> {
    const query = this.rows
      .createQueryBuilder('o')
      .orderBy('o.id', 'ASC')
      .limit(limit + 1);
    if (afterId !== null) query.andWhere('o.id > :afterId', { afterId: toInt8(afterId) });
    if (filter.petId !== undefined) query.andWhere('o.pet_id = :petId', { petId: toInt8(filter.petId) });
    if (filter.complete !== undefined) query.andWhere('o.complete = :complete', { complete: filter.complete });
    if (filter.ownerKeyId !== undefined) {
      query.andWhere('o.owner_key_id = :owner', { owner: toInt8(filter.ownerKeyId) });
    }
    return toPage((await query.getMany()).map(OrderMapper.toDomain), limit);
  }

  async create(order: NewOrder, ownerKeyId: number, tx: Transaction): Promise<Order> {
    const rows = managerOf(tx).getRepository(OrderOrmEntity);
    const saved = await rows.save(rows.create(OrderMapper.toColumns(order, ownerKeyId)));
    return OrderMapper.toDomain(saved);
  }

  async placeFromStock(
    order: NewOrder,
    ownerKeyId: number,
    { occurredAt, idempotency }: PlacementPublishing,
    tx?: Transaction,
  ): Promise<PlacementResult> {
    const shipDate = order.shipDate ?? null;
    const expiredBefore = new Date(occurredAt.getTime() - IDEMPOTENCY_RETENTION_MS);
    const [row] = await (tx ? managerOf(tx) : this.rows.manager).query<PlaceFromStockRow[]>(PLACE_FROM_STOCK, [
      toInt8(order.petId),
      order.quantity,
      shipDate,
      toInt8(ownerKeyId),
      occurredAt,
      idempotency?.key ?? null,
      idempotency?.requestHash ?? null,
      idempotency ? expiredBefore : null,
    ]);
    if (row.replay_hash !== null) {
      if (!row.replay_outcome) throw new Error('idempotency record without outcome after its request ended');
      return { kind: 'replay', record: { requestHash: row.replay_hash, outcome: fromStored(row.replay_outcome) } };
    }
    if (row.line_quantity === null || row.line_status === null) return { kind: 'tried', before: null, order: null };
    const before = { petId: order.petId, quantity: row.line_quantity, status: row.line_status };
    if (row.order_id === null) return { kind: 'tried', before, order: null };
    const placed = {
      id: fromInt8(row.order_id),
      petId: order.petId,
      quantity: order.quantity,
      shipDate,
      complete: false,
      ownerKeyId,
    };
    return { kind: 'tried', before, order: placed };
  }

  async completeIfOpen(id: number, shipDate: Date, tx: Transaction): Promise<Order | null> {
    const [rows] = await managerOf(tx).query<[OrderRow[], number]>(
      'UPDATE orders SET complete = true, ship_date = $2 WHERE id = $1 AND NOT complete RETURNING *',
      [toInt8(id), shipDate],
    );
    return rows[0] ? toOrder(rows[0]) : null;
  }

  async deleteIfOpen(id: number, tx: Transaction): Promise<Order | null> {
    const [rows] = await managerOf(tx).query<[OrderRow[], number]>(
      'DELETE FROM orders WHERE id = $1 AND NOT complete RETURNING *',
      [toInt8(id)],
    );
    return rows[0] ? toOrder(rows[0]) : null;
  }
}

const toOrder = (row: OrderRow): Order => ({
  id: fromInt8(row.id),
  petId: fromInt8(row.pet_id),
  quantity: row.quantity,
  shipDate: row.ship_date,
  complete: row.complete,
  ownerKeyId: fromInt8(row.owner_key_id),
});
