import { Injectable } from '@nestjs/common';
import type { Page, PageRequest } from '../../shared/paging/page.js';
import { EventStore } from '../domain/ports.js';
import type { StoreEvent, StoreEventType } from '../domain/store-event.js';
import type { EventViewer } from '../domain/visibility.js';

/** The event feed: what a key may see, in id (commit) order. */
@Injectable()
export class EventsService {
  constructor(private readonly store: EventStore) {}

  feed(viewer: EventViewer, types: readonly StoreEventType[] | null, page: PageRequest): Promise<Page<StoreEvent>> {
    return this.store.page(viewer, types && types.length > 0 ? types : null, page);
  }
}
