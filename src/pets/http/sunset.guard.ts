import { type CanActivate, type ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Request, Response } from 'express';
import { appConfig } from '../../config/app.config.js';
import { Clock, systemClock } from '../../shared/clock.js';
import { OperationSunsetError } from '../domain/pet.errors.js';

/**
 * GET /pets/{petId} is deprecated in favour of GET /pets?id={petId}: every answer
 * after authentication, errors included, says so in headers (RFC 9745 `Deprecation`,
 * RFC 8594 `Sunset`, successor link), and from the sunset date on the operation
 * answers 410: it can no longer be activated. As a guard it runs before the id pipe,
 * so even a 400 or 404 carries the headers; unlike an interceptor it adds no
 * observable pipeline to every request.
 */
@Injectable()
export class PetByIdSunsetGuard implements CanActivate {
  /** The header values, fixed by the configuration. */
  private readonly deprecationHeader: string;
  private readonly sunsetHeader: string;

  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Optional() private readonly clock: Clock = systemClock,
  ) {
    this.deprecationHeader = `@${Math.floor(config.petsGetByIdDeprecatedAt.getTime() / 1000)}`;
    this.sunsetHeader = config.petsGetByIdSunset.toUTCString();
  }

  canActivate(context: ExecutionContext): true {
    // An HTTP context's arguments are the request and the response (`switchToHttp()` adds closures to reach them).
    const res = context.getArgByIndex<Response>(1);
    const petId = String(context.getArgByIndex<Request>(0).params.petId ?? '');
    const successor = `/pets?id=${encodeURIComponent(petId)}`;
    res.setHeader('Deprecation', this.deprecationHeader);
    res.setHeader('Sunset', this.sunsetHeader);
    res.setHeader('Link', `<${successor}>; rel="successor-version"`);
    const sunset = this.config.petsGetByIdSunset;
    if (this.clock.now().getTime() >= sunset.getTime()) {
      throw new OperationSunsetError('GET /pets/{petId}', `GET ${successor}`, sunset);
    }
    return true;
  }
}
