import { Controller, Get } from '@nestjs/common';
import type { DiscoveryService } from '@nestjs/core';
import { ExposeHeaders, exposedHeadersOf } from './expose-headers.decorator.js';

@ExposeHeaders('X-Example-Count')
@Controller('examples')
class ExampleController {
  @Get()
  @ExposeHeaders('X-Next-Cursor', 'x-example-count')
  list(): void {}
}

@Controller('plain')
class PlainController {
  @Get()
  get(): void {}
}

describe('@ExposeHeaders', () => {
  it('is collected from controllers and handlers, each name once', () => {
    const discovery = {
      getControllers: () => [{ metatype: ExampleController }, { metatype: PlainController }, { metatype: null }],
    } as unknown as DiscoveryService;
    expect(exposedHeadersOf(discovery).sort()).toEqual(['X-Example-Count', 'X-Next-Cursor']);
  });
});
