import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '@petstore/errors';
import { type ApiKey, hasScope } from './api-key.js';
import { authenticateRequest } from './authenticate-request.js';
import { ApiKeyResolver } from './api-key.resolver.js';
import {
  ANY_SCOPE,
  API_KEY_HEADER,
  type AuthenticatedRequest,
  PUBLIC_ROUTE,
  REQUIRED_SCOPE,
} from './auth.decorators.js';
import type { Scope } from './scope.js';

/**
 * Global guard: every route needs a valid key unless marked `@Public()`. A route
 * without `@RequireScope` (or `@RequireApiKey()`, any scope) needs `admin`, so a
 * forgotten decorator fails closed.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: ApiKeyResolver,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const scope = this.reflector.getAllAndOverride<Scope | typeof ANY_SCOPE>(REQUIRED_SCOPE, targets) ?? 'admin';
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = await this.authenticate(req);
    if (scope !== ANY_SCOPE && !hasScope(key, scope)) {
      throw new ApiError(403, 'INSUFFICIENT_SCOPE', `This operation needs an API key with the '${scope}' scope`);
    }
    return true;
  }

  private async authenticate(req: AuthenticatedRequest): Promise<ApiKey> {
    const authentication = await authenticateRequest(req, this.resolver);
    if (authentication.kind === 'none') {
      throw new ApiError(401, 'UNAUTHENTICATED', `Send an API key in the ${API_KEY_HEADER} header`);
    }
    if (authentication.kind === 'invalid') {
      throw new ApiError(401, 'INVALID_API_KEY', 'The API key is unknown or revoked');
    }
    return authentication.key;
  }
}
