import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The pid of the embedded PostgreSQL a service runs with `DATA_DIR=dir`, or null when none runs there. */
export function postmasterPid(dir: string): number | null {
  const pidFile = join(dir, 'data', 'postgres', 'postmaster.pid');
  return existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : null;
}

/** Whether a process with this pid exists (one of another user's counts). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
