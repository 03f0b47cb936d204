import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { context, type Span, trace } from '@opentelemetry/api';
import { DataSource } from 'typeorm';
import { DomainEventBus } from '../shared/domain-events/domain-events.js';
import type { Transaction, UnitOfWork } from '../shared/unit-of-work/unit-of-work.js';
import { TransactionTurns } from '../platform/transaction-turns.js';
import { childSpan, tracer } from '../tracing/spans.js';
import { TypeOrmTransaction } from './typeorm-transaction.js';
import { DATABASE_LIMITS } from './data-source-options.js';

/**
 * Units of work of this process in a transaction at once (`TransactionTurns`);
 * the next wait their turn without a connection. Measured on the orders bench
 * (one hot pet): with the whole pool in transactions, 0.70–0.85× the orders/s of
 * a limit per inventory line; 2 or 4 at once, 0.99–1.18× of it. Four leave the
 * other six connections of the pool to reads outside transactions.
 */
export const TRANSACTIONS_AT_ONCE = 4;
/** The attribute of a unit of work's span that says how its transaction ended. */
const OUTCOME = 'petstore.unit_of_work.outcome';

/** Beyond this many waiting for a turn, a unit of work is shed (503 `OVERLOADED`) rather than queued. */
export const TRANSACTIONS_WAITING = 1_000;

/**
 * `uow.run` called while another unit of work of the same call chain is open: the
 * inner one would take a second connection and transaction (not rolled back with
 * the outer one, and waiting on the rows the outer one locked), so it is refused
 * at once. A bug of the caller, answered 500.
 */
export class NestedUnitOfWorkError extends Error {
  constructor() {
    super(
      'A unit of work was started inside another one. Do the work in the open transaction instead: pass its `tx` ' +
        "to repositories and to the other module's methods that take one (docs/extending.md, Transactions).",
    );
    this.name = 'NestedUnitOfWorkError';
  }
}

/**
 * One TypeORM transaction per use case (`dataSource.transaction`: BEGIN, the
 * work, COMMIT; ROLLBACK when anything throws), a few at once (`TransactionTurns`).
 * The events the use case recorded are handed to their subscribers before the
 * commit, in the same transaction. In a traced request it is a span (`unit_of_work`)
 * with the wait for a turn (`transaction.turn`) under it, beside the pool's connect
 * and the statements (BEGIN … COMMIT) that the pg instrumentation records.
 */
@Injectable()
export class TypeOrmUnitOfWork implements UnitOfWork {
  private readonly turns = new TransactionTurns(
    TRANSACTIONS_AT_ONCE,
    TRANSACTIONS_WAITING,
    DATABASE_LIMITS.POOL_WAIT_MS,
  );

  /** The unit of work open in the current call chain, to refuse one started inside it. */
  private readonly open = new AsyncLocalStorage<{ done: boolean }>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: DomainEventBus,
  ) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    // A chain the outer work left running after it ended (a callback it scheduled) is not nested.
    const outer = this.open.getStore();
    if (outer && !outer.done) return Promise.reject(new NestedUnitOfWorkError());
    const span = childSpan('unit_of_work');
    return span ? this.traced(span, work) : this.transaction(work);
  }

  private async traced<T>(span: Span, work: (tx: Transaction) => Promise<T>): Promise<T> {
    const within = trace.setSpan(context.active(), span);
    const turn = tracer.startSpan('transaction.turn', undefined, within);
    let waiting = true;
    const turnTaken = () => {
      if (waiting) turn.end();
      waiting = false;
    };
    try {
      const result = await context.with(within, () => this.transaction(work, turnTaken));
      span.setAttribute(OUTCOME, 'committed');
      return result;
    } catch (error) {
      // A refusal of the use case rolls back too: not the span's error (the request's status says what it was).
      span.setAttribute(OUTCOME, 'rolled_back');
      throw error;
    } finally {
      turnTaken();
      span.end();
    }
  }

  private transaction<T>(work: (tx: Transaction) => Promise<T>, turnTaken?: () => void): Promise<T> {
    return this.turns.run(() => {
      turnTaken?.();
      return this.dataSource.transaction((manager) => {
        const tx = new TypeOrmTransaction(manager);
        const state = { done: false };
        return this.open.run(state, async () => {
          try {
            const result = await work(tx);
            if (!this.events.empty) await this.events.dispatch(tx.events, tx);
            return result;
          } finally {
            state.done = true;
          }
        });
      });
    });
  }
}
