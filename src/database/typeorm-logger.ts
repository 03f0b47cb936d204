import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/** Queries slower than this are logged (TypeORM's `maxQueryExecutionTime`). */
export const SLOW_QUERY_MS = 1_000;

/**
 * TypeORM's messages through the application's logger (one JSON line each in
 * production, with the request id when logged during a request), instead of
 * TypeORM's own console output. Query parameters are never logged: they carry
 * client data. A refusal by a constraint is an expected outcome (the adapters turn
 * it into 409/422), so it is logged at debug level only.
 */
export class NestTypeOrmLogger implements TypeOrmLogger {
  private readonly logger = new Logger('Database');

  logQuery(): void {
    // Every query would be one line per query: not logged.
  }

  logQueryError(error: string | Error, query: string): void {
    const detail = typeof error === 'string' ? error : error.message;
    const code = typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
    if (typeof code === 'string' && code.startsWith('23')) {
      this.logger.debug(`query refused by a constraint (SQLSTATE ${code}): ${detail}`);
      return;
    }
    this.logger.warn(`query failed${typeof code === 'string' ? ` (SQLSTATE ${code})` : ''}: ${detail} -- ${query}`);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`slow query (${time} ms): ${query}`);
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.log(String(message));
  }
}
