import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, MoreThanOrEqual, type FindOptionsWhere, Repository } from 'typeorm';
import type { OrderCompleted } from '../../../../src/orders/index.js';
import { managerOf, PG_FOREIGN_KEY_VIOLATION, violatedConstraint } from '../../../../src/database/index.js';
import { DomainEventSubscriptions } from '../../../../src/shared/domain-events/domain-events.js';
import type { Transaction } from '../../../../src/shared/unit-of-work/unit-of-work.js';
import { type Page, type PageRequest, toPage } from '../../../../src/shared/paging/page.js';
import { canRemove, normalizeComment, type Review, type ReviewViewer } from '../domain/review.js';
import { ReviewedPetNotFoundError, ReviewNotFoundError } from '../domain/review.errors.js';
import { ExamplePetPurchaseOrmEntity } from '../infrastructure/pet-purchase.orm-entity.js';
import { ExampleReviewOrmEntity } from '../infrastructure/review.orm-entity.js';

export interface ReviewDraft {
  readonly rating: number;
  readonly comment?: string;
}

export interface ReviewFilter {
  readonly petId?: number;
  readonly minRating?: number;
}

/**
 * Reviews of pets, over TypeORM repositories injected as the TypeORM docs show.
 * A completed order (the orders module's `OrderCompleted` event) records a
 * purchase in the order's own transaction, so a review written after it is
 * marked as a verified purchase.
 */
@Injectable()
export class ExampleReviewsService implements OnModuleInit {
  constructor(
    @InjectRepository(ExampleReviewOrmEntity) private readonly reviews: Repository<ExampleReviewOrmEntity>,
    @InjectRepository(ExamplePetPurchaseOrmEntity) private readonly purchases: Repository<ExamplePetPurchaseOrmEntity>,
    private readonly events: DomainEventSubscriptions,
  ) {}

  onModuleInit(): void {
    this.events.subscribe<OrderCompleted>('OrderCompleted', (event, tx) => this.recordPurchase(event, tx));
  }

  async create(viewer: ReviewViewer, petId: number, draft: ReviewDraft): Promise<Review> {
    const verifiedPurchase = await this.purchases.existsBy({ apiKeyId: String(viewer.keyId), petId: String(petId) });
    try {
      const saved = await this.reviews.save(
        this.reviews.create({
          petId: String(petId),
          authorKeyId: String(viewer.keyId),
          rating: draft.rating,
          comment: normalizeComment(draft.comment),
          verifiedPurchase,
        }),
      );
      return toReview(saved);
    } catch (error) {
      if (violatedConstraint(error, PG_FOREIGN_KEY_VIOLATION) === 'FK_example_pet_reviews_pet') {
        throw new ReviewedPetNotFoundError(petId);
      }
      throw error;
    }
  }

  /** One page of the reviews that match, by id, and how many match in all. */
  async list(filter: ReviewFilter, { limit, afterId }: PageRequest): Promise<{ page: Page<Review>; total: number }> {
    const where: FindOptionsWhere<ExampleReviewOrmEntity> = {};
    if (filter.petId !== undefined) where.petId = String(filter.petId);
    if (filter.minRating !== undefined) where.rating = MoreThanOrEqual(filter.minRating);
    const [rows, total] = await Promise.all([
      this.reviews.find({
        where: afterId === null ? where : { ...where, id: MoreThan(String(afterId)) },
        order: { id: 'ASC' },
        take: limit + 1,
      }),
      this.reviews.countBy(where),
    ]);
    return { page: toPage(rows.map(toReview), limit), total };
  }

  async remove(viewer: ReviewViewer, id: number): Promise<void> {
    const review = await this.reviews.findOneBy({ id: String(id) });
    if (!review || !canRemove(viewer, toReview(review))) throw new ReviewNotFoundError(id);
    await this.reviews.delete({ id: review.id });
  }

  /** In the completing order's transaction: the purchase commits with the order, or not at all. */
  private async recordPurchase(order: OrderCompleted, tx: Transaction): Promise<void> {
    await managerOf(tx)
      .getRepository(ExamplePetPurchaseOrmEntity)
      .upsert({ apiKeyId: String(order.ownerKeyId), petId: String(order.petId) }, ['apiKeyId', 'petId']);
  }
}

function toReview(row: ExampleReviewOrmEntity): Review {
  return {
    id: Number(row.id),
    petId: Number(row.petId),
    authorKeyId: Number(row.authorKeyId),
    rating: row.rating,
    comment: row.comment,
    verifiedPurchase: row.verifiedPurchase,
    createdAt: row.createdAt,
  };
}
