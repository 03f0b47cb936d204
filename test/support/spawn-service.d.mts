import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Types of spawn-service.mjs, for the TypeScript tests that import it. */

export declare const ENTRY: string;

export declare function freePort(): Promise<number>;

export interface ServiceOptions {
  /** How errors name it, e.g. "instance-a". */
  readonly name: string;
  readonly port: number;
  readonly env?: Record<string, string | undefined>;
  readonly entry?: string;
}

export interface ServiceProcess {
  readonly name: string;
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** Settles when the process exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
}

export declare function spawnService(options: ServiceOptions): ServiceProcess;

export declare function waitUntilReady(
  service: ServiceProcess,
  isReady: () => Promise<boolean>,
  options?: { attempts?: number; intervalMs?: number },
): Promise<void>;

/** `spawnService` on a free port, resolved once `GET /health/ready` answers 200 (killed if it never does). */
export declare function startUntilReady(options?: {
  readonly name?: string;
  readonly entry?: string;
  readonly env?: Record<string, string | undefined>;
}): Promise<ServiceProcess>;

export declare function recreateDatabase(databaseUrl: string): Promise<void>;

export declare function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void>;
