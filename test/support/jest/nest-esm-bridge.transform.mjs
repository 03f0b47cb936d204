// @nestjs/throttler 6 is CommonJS and require()s the ES-module-only @nestjs/common and
// @nestjs/core. Node (22.12+) loads it as is, but Jest on Node < 24.9 cannot require() an
// ES module. This transform, applied to the throttler's files only, makes those two
// require() calls read the very modules the tests already imported (set by
// nest-esm-bridge.setup.ts), so the throttler and the app share one @nestjs/common.
const BRIDGED = /require\("(@nestjs\/(?:common|core))"\)/g;

export default {
  process(source) {
    return {
      code: source.replace(
        BRIDGED,
        (_call, name) => `globalThis[Symbol.for('petstore.nestEsm')][${JSON.stringify(name)}]`,
      ),
    };
  },
};
