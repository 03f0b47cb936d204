import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DomainEventSubscriptions } from '../../shared/domain-events/domain-events.js';
import { EventStore } from '../domain/ports.js';
import { type NewStoreEvent, toStoreEvent } from '../domain/store-event.js';

/**
 * The transactional outbox: every event a use case records is written to the
 * `events` table in its own transaction, all of them in one statement, just
 * before the commit. A refused or rolled-back change leaves no event. It skips
 * the events marked `published`: the statement that made the change wrote them.
 */
@Injectable()
export class OutboxSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEventSubscriptions,
    private readonly store: EventStore,
  ) {}

  onModuleInit(): void {
    this.events.subscribeAll(
      async (events, tx) => {
        const published = events.map(toStoreEvent).filter((e): e is NewStoreEvent => e !== null);
        await this.store.append(published, tx);
      },
      { published: false },
    );
  }
}
