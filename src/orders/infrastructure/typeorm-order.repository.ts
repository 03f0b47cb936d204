import type { Repository } from 'typeorm';
import { fromInt8, toInt8 } from '../../database/int8.js';
import { managerOf, preparedRowsIn } from '../../database/typeorm-transaction.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import { type Page, type PageRequest, toPage } from '../../shared/paging/page.js';
import type { NewOrder, Order } from '../domain/order.js';
import type { OrderFilter, OrderRepository, StockPlacement } from '../domain/order.repository.js';
import { OrderMapper } from './order.mapper.js';
import { OrderOrmEntity } from './order.orm-entity.js';
import { PLACE_FROM_STOCK, type PlaceFromStockRow } from './place-from-stock.statement.js';

/** Orders over TypeORM; writes in the given transaction. */
export class TypeOrmOrderRepository implements OrderRepository {
  constructor(private readonly rows: Repository<OrderOrmEntity>) {}

  async findById(id: number, tx?: Transaction): Promise<Order | null> {
    const row = await (await this.in(tx)).findOneBy({ id: toInt8(id) });
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
    const rows = await this.in(tx);
    const saved = await rows.save(rows.create(OrderMapper.toColumns(order, ownerKeyId)));
    return OrderMapper.toDomain(saved);
  }

  async placeFromStock(order: NewOrder, ownerKeyId: number, tx: Transaction): Promise<StockPlacement | null> {
    const shipDate = order.shipDate ?? null;
    const [row] = await preparedRowsIn<PlaceFromStockRow>(tx, PLACE_FROM_STOCK, [
      toInt8(order.petId),
      order.quantity,
      shipDate,
      toInt8(ownerKeyId),
    ]);
    if (!row) return null;
    const before = { petId: order.petId, quantity: row.line_quantity, status: row.line_status };
    if (row.order_id === null) return { before, order: null };
    // One literal, not a spread of one: the spread's copy and the key added to it took V8's slow paths.
    const placed = {
      id: fromInt8(row.order_id),
      petId: order.petId,
      quantity: order.quantity,
      shipDate,
      complete: false,
      ownerKeyId,
    };
    return { before, order: placed };
  }

  async completeIfOpen(id: number, shipDate: Date, tx: Transaction): Promise<Order | null> {
    const result = await (
      await this.in(tx)
    )
      .createQueryBuilder()
      .update()
      .set({ complete: true, shipDate })
      .where('id = :id AND NOT complete', { id: toInt8(id) })
      .returning('*')
      .execute();
    return this.firstRaw(result.raw);
  }

  async deleteIfOpen(id: number, tx: Transaction): Promise<Order | null> {
    const result = await (
      await this.in(tx)
    )
      .createQueryBuilder()
      .delete()
      .where('id = :id AND NOT complete', { id: toInt8(id) })
      .returning('*')
      .execute();
    return this.firstRaw(result.raw);
  }

  /** This module's rows, in the transaction when given one. */
  private async in(tx: Transaction | undefined): Promise<Repository<OrderOrmEntity>> {
    return tx ? (await managerOf(tx, this.rows.manager)).getRepository(OrderOrmEntity) : this.rows;
  }

  /** RETURNING rows come back with column names; map them like entities. */
  private firstRaw(raw: unknown): Order | null {
    const [row] = raw as Array<Record<string, unknown>>;
    if (!row) return null;
    return OrderMapper.toDomain(
      this.rows.create({
        id: String(row.id),
        petId: String(row.pet_id),
        quantity: Number(row.quantity),
        shipDate: row.ship_date instanceof Date ? row.ship_date : null,
        complete: Boolean(row.complete),
        ownerKeyId: String(row.owner_key_id),
      }),
    );
  }
}
