import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import { type MergeableRead, ReadBatches, type Row } from './read-batches.js';

/** A named SQL statement: PostgreSQL parses and plans it once per connection, then only binds and runs it. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/**
 * Runs hot-path reads as named prepared statements straight on the pg pool behind
 * TypeORM (the same pool, limits and admission control), without TypeORM's query
 * building and entity hydration: adapters map the rows to domain types themselves.
 * Reads of one turn of the event loop go out together (`ReadBatches`): identical
 * ones share a query, mergeable ones are asked in one. The rows are read-only.
 * TypeORM stays for migrations, the entity model and the rarer paths.
 */
@Injectable()
export class PreparedSql {
  private readonly batches: ReadBatches;

  constructor(dataSource: DataSource) {
    const pool = (): pg.Pool => (dataSource.driver as unknown as { master: pg.Pool }).master;
    this.batches = new ReadBatches(
      async (statement, values) =>
        (await pool().query<Row>({ name: statement.name, text: statement.text, values: values as unknown[] })).rows,
    );
  }

  /** The rows of `read` with `values` (see `ReadBatches`: read-only, maybe shared). */
  rows<R extends pg.QueryResultRow>(
    read: Statement | MergeableRead,
    values: readonly unknown[],
  ): Promise<readonly R[]> {
    return this.batches.rows(read, values) as Promise<readonly R[]>;
  }
}
