import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource, type EntityManager } from 'typeorm';

/** A named SQL statement: PostgreSQL parses and plans it once per connection, then only binds and runs it. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/**
 * Runs hot-path reads as named prepared statements straight on the pg pool behind
 * TypeORM (the same pool, limits and admission control), without TypeORM's query
 * building and entity hydration: adapters map the rows to domain types themselves.
 * TypeORM stays for migrations, the entity model and the rarer paths.
 */
@Injectable()
export class PreparedSql {
  constructor(private readonly dataSource: DataSource) {}

  async rows<Row extends pg.QueryResultRow>(statement: Statement, values: unknown[]): Promise<Row[]> {
    const pool = (this.dataSource.driver as unknown as { master: pg.Pool }).master;
    return (await pool.query<Row>({ name: statement.name, text: statement.text, values })).rows;
  }
}

/**
 * Runs `statement` as a named prepared statement on the connection of `manager`'s
 * transaction (the one a `TypeOrmTransaction` holds), for a write path that must
 * be short under a lock; `manager` must be transactional.
 */
export async function preparedRowsIn<Row extends pg.QueryResultRow>(
  manager: EntityManager,
  statement: Statement,
  values: unknown[],
): Promise<Row[]> {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) throw new Error(`${statement.name} needs a transaction`);
  const client = (await runner.connect()) as pg.PoolClient;
  return (await client.query<Row>({ name: statement.name, text: statement.text, values })).rows;
}
