import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import { type MergeableRead, ReadBatches, type Row } from './read-batches.js';
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

/** A statement's text cut at its placeholders: `parts[0]`, value `slots[0]`, `parts[1]`, …, the last part. */
interface Template {
  readonly parts: readonly string[];
  readonly slots: readonly number[];
}

/** The few statements that are inlined, each cut once (bounded: `inlineValues` takes any text). */
const templates = new LRUCache<string, Template>({ max: 256 });

function templateOf(text: string): Template {
  let template = templates.get(text);
  if (template === undefined) {
    const parts: string[] = [];
    const slots: number[] = [];
    let end = 0;
    for (const placeholder of text.matchAll(/\$(\d+)/g)) {
      parts.push(text.slice(end, placeholder.index));
      slots.push(Number(placeholder[1]) - 1);
      end = placeholder.index + placeholder[0].length;
    }
    parts.push(text.slice(end));
    template = { parts, slots };
    templates.set(text, template);
  }
  return template;
}

/**
 * `text` with its `$1`, `$2`, … replaced by `values` as escaped literals, for a
 * simple query (one that carries other statements with it). Every literal is
 * quoted, so PostgreSQL infers its type from where it stands, as it does for the
 * untyped parameters pg sends. `text` must use `$` only for placeholders. The text
 * is cut at its placeholders once, not searched again for every call (an order
 * inlines its statement on every placement).
 */
export function inlineValues(text: string, values: readonly unknown[]): string {
  const { parts, slots } = templateOf(text);
  let sql = parts[0];
  for (let i = 0; i < slots.length; i += 1) {
    const index = slots[i];
    if (index >= values.length) throw new RangeError(`no value for $${index + 1}`);
    sql += literal(values[index]) + parts[i + 1];
  }
  return sql;
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
