import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A plan table (`PLANS_FILE`) holding `text`, in a fresh temporary directory of its own; returns its path. */
export function temporaryPlansFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-plans-')), 'plans.yaml');
  writeFileSync(file, text);
  return file;
}
