import type { DomainEvent } from '../../shared/domain-events/domain-event.js';
import type { Category } from './category.js';

/** A category was created (POST /categories): the category as saved. */
export interface CategoryCreated extends DomainEvent {
  readonly type: 'CategoryCreated';
  readonly category: Category;
}

/** A category was replaced (PUT): the category as saved. Not recorded for a replace that changes nothing. */
export interface CategoryUpdated extends DomainEvent {
  readonly type: 'CategoryUpdated';
  readonly category: Category;
}

/** A category was deleted (DELETE): the category as it was, since it can no longer be read. */
export interface CategoryDeleted extends DomainEvent {
  readonly type: 'CategoryDeleted';
  readonly category: Category;
}

export const categoryCreated = (category: Category, actorKeyId: number | null, occurredAt: Date): CategoryCreated => ({
  type: 'CategoryCreated',
  category,
  actorKeyId,
  occurredAt,
});

export const categoryUpdated = (category: Category, actorKeyId: number | null, occurredAt: Date): CategoryUpdated => ({
  type: 'CategoryUpdated',
  category,
  actorKeyId,
  occurredAt,
});

export const categoryDeleted = (category: Category, actorKeyId: number | null, occurredAt: Date): CategoryDeleted => ({
  type: 'CategoryDeleted',
  category,
  actorKeyId,
  occurredAt,
});
