import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { ServeStaticModule } from '@nestjs/serve-static';
import type { Response } from 'express';
import { consoleSecurityHeaders } from '../shared/http/security-headers.js';
import { builtConsoleFolder, CONSOLE_PATH } from './console-files.js';

/** Vite names the files under assets/ by their content's hash: a file there never changes. */
const HASHED_ASSETS = /[\\/]assets[\\/][^\\/]+$/;

/**
 * The admin console (docs/console.md): the built single-page app under `/console`,
 * with a Content-Security-Policy of its own that lets it load only the service's
 * files and call only the service's API (the API's answers keep `default-src
 * 'none'`). /console redirects to /console/ (express.static's own redirect); any other path below it (a deep link such as /console/keys/42) is
 * answered with its index.html; a missing file under assets/ is the API's 404. The
 * rate-limit middleware counts none of it (`RateLimitsModule`'s exempt prefix); the
 * route catalogue lists it (`configureApp`). Every call the page makes goes to the
 * admin API with the key the person signs in with.
 */
@Module({})
export class ConsoleModule {
  static register(folder: string | null = builtConsoleFolder()): DynamicModule {
    if (folder === null) {
      new Logger('Console').warn(
        `The admin console is not built (npm run build builds it): ${CONSOLE_PATH} is not served`,
      );
      return { module: ConsoleModule };
    }
    const headers = consoleSecurityHeaders();
    return {
      module: ConsoleModule,
      imports: [
        ServeStaticModule.forRoot({
          rootPath: folder,
          serveRoot: CONSOLE_PATH,
          exclude: [`${CONSOLE_PATH}/assets/{*file}`],
          serveStaticOptions: {
            index: 'index.html',
            setHeaders: (res: Response, path: string) => {
              for (const [name, value] of headers) res.setHeader(name, value);
              res.setHeader(
                'Cache-Control',
                HASHED_ASSETS.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
              );
            },
          },
        }),
      ],
    };
  }
}
