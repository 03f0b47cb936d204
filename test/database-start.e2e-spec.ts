import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it.each(['a fresh data directory (initdb)', 'the same directory again (the server alone)'])(
    'embedded, %s: running settles while the server is still starting, and it then answers',
    async () => {
      const order: string[] = [];
      const log = (line: string) => {
        if (line.startsWith('Embedded PostgreSQL listening')) order.push('listening');
      };
      const start = startDatabase({ DATA_DIR: join(dir, 'data') }, log);
      const running = start.running.then(() => order.push('running'));
      const database = await start.ready;
      order.push('ready');
      await running;
      try {
        expect(order).toEqual(['running', 'listening', 'ready']);
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
        } finally {
          await client.end();
        }
      } finally {
        await database.stop();
      }
    },
  );

  it('embedded, failing: running still settles, and ready rejects where it is awaited', async () => {
    const notADirectory = join(dir, 'a-file');
    writeFileSync(notADirectory, '');
    const start = startDatabase({ DATA_DIR: notADirectory }, () => undefined);
    await start.running;
    await expect(start.ready).rejects.toThrow();
  });
});
