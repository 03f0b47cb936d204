// See nest-esm-bridge.transform.mjs: the ES modules that @nestjs/throttler's require() calls receive under Jest.
Object.assign(globalThis, {
  [Symbol.for('petstore.nestEsm')]: {
    '@nestjs/common': await import('@nestjs/common'),
    '@nestjs/core': await import('@nestjs/core'),
  },
});
