import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '@petstore/errors';
import { hasScope } from './api-key.js';
import { type Authentication, authenticateRequest } from './authenticate-request.js';
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

  /** What each route asks for, by controller class and handler (decorators are fixed once the app runs). */
  private readonly needs = new WeakMap<object, WeakMap<object, Scope | typeof ANY_SCOPE | 'public'>>();

  /** At once when the key is already known (the rate-limit middleware resolved it), else once it is. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const scope = this.routeNeeds(context);
    if (scope === 'public') return true;
    // The request is an HTTP context's first argument; `switchToHttp()` would add three closures to the context.
    const req = context.getArgByIndex<AuthenticatedRequest>(0);
    const authentication = authenticateRequest(req, this.resolver);
    return authentication instanceof Promise
      ? authentication.then((result) => admit(result, scope))
      : admit(authentication, scope);
  }

  private routeNeeds(context: ExecutionContext): Scope | typeof ANY_SCOPE | 'public' {
    const [handler, controller] = [context.getHandler(), context.getClass()];
    let byHandler = this.needs.get(controller);
    if (!byHandler) this.needs.set(controller, (byHandler = new WeakMap()));
    let needs = byHandler.get(handler);
    if (needs === undefined) {
      const targets = [handler, controller];
      needs = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)
        ? 'public'
        : (this.reflector.getAllAndOverride<Scope | typeof ANY_SCOPE>(REQUIRED_SCOPE, targets) ?? 'admin');
      byHandler.set(handler, needs);
    }
    return needs;
  }
}

/** A request's key, if it has one with the scope the route needs; else the 401 or 403 that answers it. */
function admit(authentication: Authentication, scope: Scope | typeof ANY_SCOPE): true {
  if (authentication.kind === 'none') {
    throw new ApiError(401, 'UNAUTHENTICATED', `Send an API key in the ${API_KEY_HEADER} header`);
  }
  if (authentication.kind === 'invalid') {
    throw new ApiError(401, 'INVALID_API_KEY', 'The API key is unknown or revoked');
  }
  if (authentication.kind === 'expired') {
    throw new ApiError(401, 'API_KEY_EXPIRED', 'The API key has expired');
  }
  if (authentication.kind === 'address_not_allowed') {
    throw new ApiError(403, 'API_KEY_ADDRESS_NOT_ALLOWED', 'The API key may not be used from this address');
  }
  if (scope !== ANY_SCOPE && !hasScope(authentication.key, scope)) {
    throw new ApiError(403, 'INSUFFICIENT_SCOPE', `This operation needs an API key with the '${scope}' scope`);
  }
  return true;
}
