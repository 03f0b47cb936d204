import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import type { DiscoveryService } from '@nestjs/core';
import { discoverRoutes, RouteCatalog, templatePattern } from './route-catalog.js';

@Controller('pets')
class PetsController {
  @Get()
  list(): void {}
  @Get(':petId')
  one(): void {}
  @Put(':petId')
  replace(): void {}
  helper(): void {}
}

@Controller()
class RootController {
  @Post('store/orders')
  order(): void {}
  @Delete(['a', 'b/:id'])
  remove(): void {}
}

const discovery = {
  getControllers: () => [{ metatype: PetsController }, { metatype: RootController }],
} as unknown as DiscoveryService;

describe('discoverRoutes', () => {
  it("is every controller's routes, method and template, in declaration order", () => {
    expect(discoverRoutes(discovery).map(({ method, path }) => `${method} ${path}`)).toEqual([
      'GET /pets',
      'GET /pets/:petId',
      'PUT /pets/:petId',
      'POST /store/orders',
      'DELETE /a',
      'DELETE /b/:id',
    ]);
    expect(discoverRoutes(discovery)[1].handler === PetsController.prototype.one).toBe(true);
  });

  it('puts a global prefix first', () => {
    expect(discoverRoutes(discovery, '/v1/')[0].path).toBe('/v1/pets');
  });
});

describe('templatePattern', () => {
  it.each([
    ['/pets/:petId', '/pets/7', true],
    ['/pets/:petId', '/PETS/7/', true],
    ['/pets/:petId', '/pets/', false],
    ['/pets/:petId', '/pets/7/x', false],
    ['/files/*path', '/files/a/b', true],
    ['/files{/:name}', '/files', true],
    ['/files{/:name}', '/files/x', true],
    ['/a.b', '/aXb', false],
  ])('%s matches %s: %s', (template, path, expected) => {
    expect(templatePattern(template).test(path)).toBe(expected);
  });
});

describe('RouteCatalog', () => {
  const catalog = new RouteCatalog(discoverRoutes(discovery));

  it('tells the methods a path is served with, HEAD wherever GET is', () => {
    expect(catalog.allowedMethods('/pets/7')).toEqual(['GET', 'HEAD', 'PUT']);
    expect(catalog.allowedMethods('/owls')).toEqual([]);
  });

  it('names the route that serves a method on a path, as Express picks it', () => {
    expect(catalog.serving('HEAD', '/pets/7')?.path).toBe('/pets/:petId');
    expect(catalog.serving('DELETE', '/pets/7')).toBeUndefined();
    catalog.add({ method: 'ALL', path: '/docs' });
    expect(catalog.serving('PATCH', '/docs')?.path).toBe('/docs');
  });
});
