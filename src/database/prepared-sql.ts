import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import { quoteLiteral } from './sql-literal.js';

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
 * `text` with its `$1`, `$2`, … replaced by `values` as escaped literals, for a
 * simple query (one that carries other statements with it). Every literal is
 * quoted, so PostgreSQL infers its type from where it stands, as it does for the
 * untyped parameters pg sends. `text` must use `$` only for placeholders.
 */
export function inlineValues(text: string, values: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index >= values.length) throw new RangeError(`no value for $${n}`);
    return literal(values[index]);
  });
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof Date) return quoteLiteral(value.toISOString());
  if (typeof value === 'string') return quoteLiteral(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return quoteLiteral(String(value));
  }
  throw new TypeError(`cannot inline a value of type ${typeof value}`);
}
