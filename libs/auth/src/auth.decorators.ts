import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
import type { ApiKey } from './api-key.js';
import type { Scope } from './scope.js';

export const PUBLIC_ROUTE = 'petstore:public';
export const REQUIRED_SCOPE = 'petstore:scope';
/** Name of the OpenAPI security scheme (apiKey in header `X-API-Key`). */
export const API_KEY_SECURITY = 'ApiKey';
export const API_KEY_HEADER = 'X-API-Key';

/** Marks a route (or controller) as reachable without an API key. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** Requires an API key carrying `scope`; documents the security requirement in OpenAPI. */
export const RequireScope = (scope: Scope): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), ApiSecurity(API_KEY_SECURITY));

/** `REQUIRED_SCOPE` of `@RequireApiKey()`: any valid key, whatever its scopes. */
export const ANY_SCOPE = 'any';

/** Requires a valid API key with any scopes (e.g. a key reading its own quota); documents it in OpenAPI. */
export const RequireApiKey = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(REQUIRED_SCOPE, ANY_SCOPE), ApiSecurity(API_KEY_SECURITY));

/** The request's authenticated key, attached by the guard. */
export interface AuthenticatedRequest extends Request {
  apiKey?: ApiKey;
}

/** Injects the authenticated API key into a handler parameter. */
export const CurrentApiKey = createParamDecorator((_: unknown, ctx: ExecutionContext): ApiKey => {
  const key = ctx.switchToHttp().getRequest<AuthenticatedRequest>().apiKey;
  if (!key) throw new Error('CurrentApiKey used on a route without RequireScope');
  return key;
});
