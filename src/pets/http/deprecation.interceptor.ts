import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  Optional,
} from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { appConfig } from '../../config/app.config.js';
import { CLOCK, type Clock, systemClock } from '../../shared/clock.js';
import { OperationSunsetError } from '../domain/pet.errors.js';

/**
 * GET /pets/{petId} is deprecated in favour of GET /pets?id={petId}: every answer,
 * errors included, says so in headers (RFC 9745 `Deprecation`, RFC 8594 `Sunset`,
 * successor link), and from the sunset date on the operation answers 410. As an
 * interceptor it runs before the id pipe, so even a 400 or 404 carries the headers.
 */
@Injectable()
export class PetByIdDeprecationInterceptor implements NestInterceptor {
  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Optional() @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const res = http.getResponse<Response>();
    const petId = String(http.getRequest<Request>().params.petId ?? '');
    const successor = `/pets?id=${encodeURIComponent(petId)}`;
    const sunset = this.config.petsGetByIdSunset;
    res.setHeader('Deprecation', `@${Math.floor(this.config.petsGetByIdDeprecatedAt.getTime() / 1000)}`);
    res.setHeader('Sunset', sunset.toUTCString());
    res.setHeader('Link', `<${successor}>; rel="successor-version"`);
    if (this.clock().getTime() >= sunset.getTime()) {
      throw new OperationSunsetError('GET /pets/{petId}', `GET ${successor}`, sunset);
    }
    return next.handle();
  }
}
