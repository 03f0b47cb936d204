import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Response } from 'express';
import { appConfig } from '../../config/app.config.js';
import { OperationSunsetError } from '../domain/pet.errors.js';

/**
 * GET /pets/{petId} is deprecated in favour of GET /pets?id={petId}: every answer
 * says so in headers (RFC 9745 `Deprecation`, RFC 8594 `Sunset`, successor link),
 * and from the sunset date on the operation answers 410.
 */
@Injectable()
export class PetByIdDeprecation {
  constructor(@Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>) {}

  get sunset(): Date {
    return this.config.petsGetByIdSunset;
  }

  apply(res: Response, petId: number, now = new Date()): void {
    const successor = `/pets?id=${petId}`;
    res.setHeader('Deprecation', `@${Math.floor(this.config.petsGetByIdDeprecatedAt.getTime() / 1000)}`);
    res.setHeader('Sunset', this.config.petsGetByIdSunset.toUTCString());
    res.setHeader('Link', `<${successor}>; rel="successor-version"`);
    if (now.getTime() >= this.config.petsGetByIdSunset.getTime()) {
      throw new OperationSunsetError('GET /pets/{petId}', `GET ${successor}`, this.config.petsGetByIdSunset);
    }
  }
}
