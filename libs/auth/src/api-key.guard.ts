import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '@petstore/errors';
import { hasScope } from './api-key.js';
import { ApiKeyResolver } from './api-key.resolver.js';
import { API_KEY_HEADER, type AuthenticatedRequest, PUBLIC_ROUTE, REQUIRED_SCOPE } from './auth.decorators.js';
import type { Scope } from './scope.js';

/**
 * Global guard: every route needs a valid key unless marked `@Public()`. A route
 * without `@RequireScope` needs `admin`, so a forgotten decorator fails closed.
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
    const scope = this.reflector.getAllAndOverride<Scope>(REQUIRED_SCOPE, targets) ?? 'admin';
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = req.apiKey ?? (await this.authenticate(req));
    if (!hasScope(key, scope)) {
      throw new ApiError(403, 'INSUFFICIENT_SCOPE', `This operation needs an API key with the '${scope}' scope`);
    }
    return true;
  }

  private async authenticate(req: AuthenticatedRequest) {
    const secret = req.header(API_KEY_HEADER);
    if (!secret) {
      throw new ApiError(401, 'UNAUTHENTICATED', `Send an API key in the ${API_KEY_HEADER} header`);
    }
    const key = secret.length <= 200 ? await this.resolver.resolve(secret) : null;
    if (!key) throw new ApiError(401, 'INVALID_API_KEY', 'The API key is unknown or revoked');
    req.apiKey = key;
    return key;
  }
}
