import { readFileSync } from 'node:fs';

/** The file's bytes, or undefined when it cannot be read (absent, unreadable): for optional files. */
export function readIfPresent(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
