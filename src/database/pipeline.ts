import pg from 'pg';
import type { Statement } from './prepared-sql.js';

/** A named statement and its values. */
export interface PreparedStep {
  readonly statement: Statement;
  readonly values: readonly unknown[];
}

/** A step of a pipeline: a named statement and its values, or a statement without values (`BEGIN`, `COMMIT`). */
export type Step = string | PreparedStep;

type Row = pg.QueryResultRow;

/** The part of pg's connection that remembers which named statements PostgreSQL holds for it. */
interface NamedStatements {
  parsedStatements: Record<string, string | undefined>;
}

interface PlannedStep {
  readonly statement?: Statement;
  readonly text: string;
  readonly values: Array<string | null>;
}

/** pg's result builder (its `Result`), as far as a pipeline uses it: rows parsed with pg's type parsers. */
interface Rows {
  readonly rows: Row[];
  addFields(fields: pg.FieldDef[]): void;
  parseRow(fields: unknown[]): Row;
  addRow(row: Row): void;
}

const newRows = (): Rows => new pg.Result('', undefined as unknown as typeof pg.types) as unknown as Rows;

const namedStatements = (connection: pg.Connection): NamedStatements['parsedStatements'] =>
  (connection as unknown as NamedStatements).parsedStatements;

/** A value as the text PostgreSQL reads for a parameter (null for NULL): a date in UTC, a number or boolean in its text form. */
function wireValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  throw new TypeError(`cannot send a value of type ${typeof value}`);
}

/**
 * Several statements in one round trip: the extended protocol's messages for
 * each (Bind, Describe, Execute; Parse only the first time a named statement runs
 * on the connection), then one Sync. PostgreSQL runs them in order and skips the
 * rest after an error, so `BEGIN` + a statement, or a transaction's last writes +
 * `COMMIT`, travel together with their values as parameters: nothing is quoted
 * into the text, and a named statement is parsed and planned once per connection.
 *
 * A pg "submittable" (the interface pg-cursor uses): pg writes it when the
 * connection is free and hands it the answers, in order.
 */
export class Pipeline implements pg.Submittable {
  /** Set by `run` (pg may wrap it, for its query timeout). */
  callback?: (error: Error | null, rows?: Row[][]) => void;
  private readonly rows: Row[][] = [];
  private result = newRows();
  private failure: Error | undefined;
  private finished = false;

  private constructor(private readonly steps: readonly PlannedStep[]) {}

  /** Runs `steps` on `client` in one round trip: each step's rows, in order; rejects with the first error. */
  static run(client: pg.ClientBase, steps: readonly Step[]): Promise<Row[][]> {
    let planned: PlannedStep[];
    try {
      // Values are mapped before anything is written, so a value that cannot be sent writes nothing.
      planned = steps.map((step) =>
        typeof step === 'string'
          ? { text: step, values: [] }
          : { statement: step.statement, text: step.statement.text, values: step.values.map(wireValue) },
      );
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return new Promise((resolve, reject) => {
      const pipeline = new Pipeline(planned);
      pipeline.callback = (error, rows) => (error ? reject(error) : resolve(rows ?? []));
      client.query(pipeline);
    });
  }

  submit(connection: pg.Connection): void {
    const named = namedStatements(connection);
    const parsedHere = new Set<string>();
    connection.stream.cork?.();
    try {
      for (const { statement, text, values } of this.steps) {
        if (!statement) {
          connection.parse({ name: '', text, types: [] }, true);
          connection.bind({ values }, true);
        } else {
          if (named[statement.name] !== text && !parsedHere.has(statement.name)) {
            // Close first: a statement of that name may exist from an earlier pipeline that failed after
            // parsing it (closing a statement that does not exist is not an error).
            connection.close({ type: 'S', name: statement.name }, true);
            connection.parse({ name: statement.name, text, types: [] }, true);
            parsedHere.add(statement.name);
          }
          connection.bind({ statement: statement.name, values }, true);
        }
        connection.describe({ type: 'P', name: '' }, true);
        connection.execute({ portal: '' }, true);
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
  }

  handleRowDescription(message: { fields: pg.FieldDef[] }): void {
    this.result.addFields(message.fields);
  }

  handleDataRow(message: { fields: unknown[] }): void {
    if (this.failure) return;
    try {
      this.result.addRow(this.result.parseRow(message.fields));
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
    }
  }

  handleCommandComplete(_message: unknown, connection: pg.Connection): void {
    this.stepDone(connection);
  }

  handleEmptyQuery(connection: pg.Connection): void {
    this.stepDone(connection);
  }

  /**
   * A step that is a `COPY … FROM STDIN` gets no data: PostgreSQL fails it, and the pipeline with it. It ignored
   * the pipeline's Sync while it waited for data, so another one ends the pipeline.
   */
  handleCopyInResponse(connection: pg.Connection): void {
    (connection as unknown as { sendCopyFail(message: string): void }).sendCopyFail('A pipeline sends no COPY data');
    connection.sync();
  }

  /** `COPY … TO STDOUT` rows are not read. */
  handleCopyData(): void {}

  /** PostgreSQL's error (the steps after it were skipped), a broken connection, or pg's query timeout. */
  handleError(error: Error): void {
    this.finish(error);
  }

  handleReadyForQuery(): void {
    this.finish(this.failure);
  }

  private stepDone(connection: pg.Connection): void {
    const { statement } = this.steps[this.rows.length];
    // It ran, so PostgreSQL holds it now: the next pipeline on this connection only binds it.
    if (statement) namedStatements(connection)[statement.name] = statement.text;
    this.rows.push(this.result.rows);
    this.result = newRows();
  }

  private finish(error: Error | undefined): void {
    if (this.finished) return;
    this.finished = true;
    if (error) this.callback?.(error);
    else this.callback?.(null, this.rows);
  }
}
