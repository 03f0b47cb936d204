import { appendFileSync, chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startDatabase } from '../src/database/database-url.js';

/**
 * `startDatabase` says when the rest of a start can go on beside the database's
 * (main.ts then loads the application while PostgreSQL starts): `running` settles
 * while an embedded server is still starting, and always settles, whether the start
 * succeeds or fails; a failure surfaces only where `ready` is awaited.
 */
async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('startDatabase (e2e: a real embedded PostgreSQL)', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-database-start-'));
    chmodSync(dir, 0o755); // under root, the embedded server runs as 'postgres' and must reach its directory
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('with DATABASE_URL: running at once, ready with that URL', async () => {
    const start = startDatabase({ DATABASE_URL: 'postgres://somewhere/db' }, () => undefined);
    await start.running;
    await expect(start.ready).resolves.toMatchObject({ url: 'postgres://somewhere/db' });
  });

  it.each([
    ['a fresh data directory (initdb)', true],
    ['the same directory again (the server alone)', false],
  ])('embedded, %s: running settles while the server is still starting, and it then answers', async (_case, fresh) => {
    const order: string[] = [];
    const log = (line: string) => {
      if (line.startsWith('Embedded PostgreSQL listening')) order.push('listening');
      if (/^(Initialising|Made)/.test(line)) order.push(line.split(' ')[0]); // templates 'off': initdb, always
    };
    const start = startDatabase({ DATA_DIR: join(dir, 'data'), EMBEDDED_PG_TEMPLATES: 'off' }, log);
    const running = start.running.then(() => order.push('running'));
    const database = await start.ready;
    order.push('ready');
    await running;
    try {
      expect(order).toEqual([...(fresh ? ['Initialising'] : []), 'running', 'listening', 'ready']);
      expect(await query(database.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await database.stop();
    }
  });

  it('embedded, cluster templates: initdb once, then fresh directories copied from its template, each its own cluster', async () => {
    const templates = join(dir, 'templates');
    const env = (name: string) => ({ DATA_DIR: join(dir, name), EMBEDDED_PG_TEMPLATES: templates });
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);

    const first = await startDatabase(env('one'), log).ready;
    try {
      expect(lines.filter((line) => /^(Initialising|Kept a copy|Made)/.test(line)).map((l) => l.split(' ')[0])).toEqual(
        ['Initialising', 'Kept'],
      );
      await query(first.url, 'CREATE TABLE only_in_one (x int)');
    } finally {
      await first.stop();
    }
    expect(readdirSync(templates)).toHaveLength(1);

    lines.length = 0;
    const second = await startDatabase(env('two'), log).ready;
    try {
      expect(lines.filter((line) => /^(Initialising|Kept a copy|Made)/.test(line)).map((l) => l.split(' ')[0])).toEqual(
        ['Made'],
      );
      expect(await query(second.url, "SELECT to_regclass('only_in_one') IS NULL AS absent")).toEqual([
        { absent: true },
      ]);
    } finally {
      await second.stop();
    }
    const again = await startDatabase(env('two'), log).ready; // its second start: its own files, its own password
    await again.stop();
  });

  it('embedded, failing: running still settles, and ready rejects where it is awaited', async () => {
    const notADirectory = join(dir, 'a-file');
    writeFileSync(notADirectory, '');
    const start = startDatabase({ DATA_DIR: notADirectory }, () => undefined);
    await start.running;
    await expect(start.ready).rejects.toThrow();
  });

  it("embedded, a server that exits while starting: ready rejects with the server's own last lines, not an empty reason", async () => {
    const dataDir = join(dir, 'refused-config');
    const first = startDatabase({ DATA_DIR: dataDir, EMBEDDED_PG_TEMPLATES: 'off' }, () => undefined);
    await (await first.ready).stop();
    appendFileSync(join(dataDir, 'postgres', 'postgresql.conf'), '\nshared_buffers = no_such_size\n');
    const again = startDatabase({ DATA_DIR: dataDir, EMBEDDED_PG_TEMPLATES: 'off' }, () => undefined);
    await again.running;
    await expect(again.ready).rejects.toThrow(/exited while starting; its last lines:\n[^]*shared_buffers/);
  });
});
