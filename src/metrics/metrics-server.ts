import { createServer, type Server } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig } from '../config/app.config.js';
import { AppMetrics } from './app-metrics.js';

/**
 * With METRICS_PORT set, /metrics is served on that port, without an API key (a
 * port that only the monitoring network should reach), and not on the main port.
 * Anything else on this port answers 404 in the Error shape.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Metrics');
  private server: Server | null = null;

  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    private readonly metrics: AppMetrics,
  ) {}

  /** The port it listens on, or null when METRICS_PORT is unset. */
  get port(): number | null {
    const address = this.server?.address();
    return typeof address === 'object' && address !== null ? address.port : null;
  }

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metricsPort;
    if (port === undefined) return;
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        const status = path === '/metrics' ? 405 : 404;
        const code = status === 405 ? 'METHOD_NOT_ALLOWED' : 'ROUTE_NOT_FOUND';
        res.writeHead(status, {
          'Content-Type': 'application/json',
          ...(status === 405 ? { Allow: 'GET, HEAD' } : {}),
        });
        res.end(JSON.stringify({ code, message: `No route for ${req.method} ${path} on the metrics port`, status }));
        return;
      }
      this.metrics.scrape().then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'Content-Type': contentType });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
        (error: unknown) => {
          this.logger.error(`metrics collection failed: ${error instanceof Error ? error.stack : String(error)}`);
          res.writeHead(500, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', status: 500 }));
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log(`Metrics on http://localhost:${this.port}/metrics (no API key)`);
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
