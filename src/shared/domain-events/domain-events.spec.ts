import type { DomainEvent } from './domain-event.js';
import { DomainEventBus, RecordedEvents } from './domain-events.js';
import type { Transaction } from '../unit-of-work/unit-of-work.js';

const event = (type: string): DomainEvent => ({ type, occurredAt: new Date(0), actorKeyId: null });

class FakeTx implements Transaction {
  readonly events = new RecordedEvents();
  savepoint<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
  record(e: DomainEvent): void {
    this.events.record(e);
  }
}

describe('DomainEventBus', () => {
  it('hands a batch subscriber every event of the transaction once, after the per-type handlers', async () => {
    const bus = new DomainEventBus();
    const calls: string[] = [];
    bus.subscribe('A', async () => void calls.push('handler A'));
    bus.subscribeAll(async (events) => void calls.push(`batch ${events.map((e) => e.type).join(',')}`));
    const tx = new FakeTx();
    tx.record(event('A'));
    tx.record(event('B'));
    await bus.dispatch(tx.events, tx);
    expect(calls).toEqual(['handler A', 'batch A,B']);
  });

  it('dispatches again what handlers record, and nothing for a transaction without events', async () => {
    const bus = new DomainEventBus();
    const batches: string[][] = [];
    const tx = new FakeTx();
    bus.subscribe('A', async () => tx.record(event('C')));
    bus.subscribeAll(async (events) => void batches.push(events.map((e) => e.type)));
    await bus.dispatch(tx.events, tx);
    expect(batches).toEqual([]);
    tx.record(event('A'));
    await bus.dispatch(tx.events, tx);
    expect(batches).toEqual([['A', 'C']]);
    expect(bus.empty).toBe(false);
  });
});
