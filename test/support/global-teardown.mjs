import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const embedded = globalThis.embeddedTestDatabase;
  if (!embedded) return;
  await embedded.db.stop();
  rmSync(embedded.dir, { recursive: true, force: true });
  delete process.env.DATABASE_URL;
}
