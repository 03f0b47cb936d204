import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

/**
 * The console is served by the service under /console (src/console/console.module.ts)
 * from dist/console, with a Content-Security-Policy that allows only the service's own
 * files: no inline script or style may end up in index.html, and nothing is fetched
 * from elsewhere (everything is bundled).
 */
export default defineConfig({
  base: '/console/',
  plugins: [preact()],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    // The polyfill is for browsers without <link rel="modulepreload">, which the console does not support.
    modulePreload: { polyfill: false },
    // Never inline an asset as a data: URL into the CSS or JS: every file is the service's own.
    assetsInlineLimit: 0,
  },
});
