import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { eventually } from './eventually.js';
import { redisAnswersPing } from './redis-ping.mjs';
import { freePort } from './spawn-service.mjs';

/** Whether this machine has a redis-server to start. */
export const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0;

/**
 * A private redis-server on a free port of 127.0.0.1, without persistence, that a
 * test starts and kills at will to stage an outage. The port stays the same across
 * restarts, so the app's client reconnects to the new server.
 */
export class PrivateRedisServer {
  private process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  /** Picks the port; nothing runs until {@link start}. */
  static async onFreePort(): Promise<PrivateRedisServer> {
    return new PrivateRedisServer(await freePort());
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server and resolves once it answers PING. */
  async start(): Promise<void> {
    this.process = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await eventually(() => redisAnswersPing(this.url));
  }

  /** Kills the server (SIGKILL: clients get no goodbye) and waits for it to exit; nothing to do when it is not running. */
  async kill(): Promise<void> {
    const stopping = this.process;
    this.process = undefined;
    if (!stopping || stopping.exitCode !== null) return;
    await new Promise((resolve) => {
      stopping.once('exit', resolve);
      stopping.kill('SIGKILL');
    });
  }
}
