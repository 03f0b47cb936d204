import { Global, Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import { appConfig } from '../config/app.config.js';
import { HttpLogging } from './http-logging.js';
import { createRootLogger, defaultLogDestination, LogDestination, RootLogger } from './root-logger.js';

/** The root logger, built once per application from LOG_LEVEL. */
@Global()
@Module({
  providers: [
    // pino's own streams (stdout, pino-pretty's), not instances of a class of ours: a factory.
    { provide: LogDestination, useFactory: defaultLogDestination },
    {
      provide: RootLogger,
      inject: [appConfig.KEY, LogDestination],
      useFactory: (config: ConfigType<typeof appConfig>, destination: LogDestination) =>
        new RootLogger(createRootLogger(config.logLevel, destination)),
    },
  ],
  exports: [RootLogger, LogDestination],
})
class RootLoggerModule {}

/**
 * Structured logs with pino: the request logger (`HttpLogging`, mounted
 * by `configureApp`) and, through nestjs-pino, a Nest `LoggerService` on the same
 * root logger (`main.ts` installs it with `app.useLogger`). nestjs-pino is told to
 * use the existing logger (`useExisting`) and to mount no middleware of its own, so
 * there is one request logger, not two: ours, mounted ahead of every other
 * middleware (Nest mounts a module's middleware after `app.use`'s), so that even
 * requests refused by the rate limiter or the body parser are logged and carry a
 * request id.
 */
@Module({
  imports: [
    RootLoggerModule,
    LoggerModule.forRootAsync({
      inject: [RootLogger],
      // No routes: its middleware would only repeat what HttpLogging already did (and
      // would add a catch-all route to the router, which 404/405 detection reads).
      useFactory: ({ logger }: RootLogger) => ({ pinoHttp: { logger }, useExisting: true, forRoutes: [] }),
    }),
  ],
  providers: [HttpLogging],
  exports: [HttpLogging],
})
export class LoggingModule {}
