import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { OrderCancelled, OrderPlaced } from '../../../../src/orders/index.js';
import { DomainEventSubscriptions } from '../../../../src/shared/domain-events/domain-events.js';
import type { Transaction } from '../../../../src/shared/unit-of-work/unit-of-work.js';
import { canSee, type LoyaltyBalance, type LoyaltyViewer, pointsFor } from '../domain/loyalty-points.js';
import { LoyaltyPointsRepository } from '../domain/loyalty-points.repository.js';
import { LoyaltyAccountNotFoundError, LoyaltyPointsSpentError } from '../domain/loyalty.errors.js';

/**
 * Loyalty points follow the orders: earned when one is placed, taken back when it
 * is cancelled, in the order's own transaction, so that points and orders always
 * agree. The order's owner earns them, whoever (an admin) acted for it.
 */
@Injectable()
export class ExampleLoyaltyService implements OnModuleInit {
  constructor(
    private readonly points: LoyaltyPointsRepository,
    private readonly events: DomainEventSubscriptions,
  ) {}

  onModuleInit(): void {
    this.events.subscribe<OrderPlaced>('OrderPlaced', (event, tx) => this.earn(event, tx));
    this.events.subscribe<OrderCancelled>('OrderCancelled', (event, tx) => this.giveBack(event, tx));
  }

  async balance(viewer: LoyaltyViewer, keyId: number): Promise<LoyaltyBalance> {
    if (!canSee(viewer, keyId)) throw new LoyaltyAccountNotFoundError(keyId);
    return { keyId, points: await this.points.pointsOf(keyId) };
  }

  async earn(order: OrderPlaced, tx: Transaction): Promise<void> {
    await this.points.add(order.ownerKeyId, pointsFor(order.quantity), tx);
  }

  /** Refuses (and so fails the cancellation) when the points were spent since. */
  async giveBack(order: OrderCancelled, tx: Transaction): Promise<void> {
    const points = pointsFor(order.quantity);
    if (!(await this.points.take(order.ownerKeyId, points, tx))) throw new LoyaltyPointsSpentError(points);
  }
}
