import type { ExecutionContext } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { ConfigType } from '@nestjs/config';
import type { appConfig } from '../../config/app.config.js';
import { OperationSunsetError } from '../domain/pet.errors.js';
import { PetByIdSunsetGuard } from './sunset.guard.js';

const CONFIG = {
  petsGetByIdDeprecatedAt: new Date('2026-11-01T00:00:00Z'),
  petsGetByIdSunset: new Date('2027-06-30T00:00:00Z'),
} as ConfigType<typeof appConfig>;

const EXPECTED = {
  Deprecation: '@1793491200',
  Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
  Link: '</pets?id=12%2F3>; rel="successor-version"',
};

/** A response that records setHeader. */
function response() {
  const headers: Record<string, string> = {};
  const res = { setHeader: (name: string, value: string) => (headers[name] = value) };
  return { res, headers };
}

/** Nest's own execution context of an HTTP request for pet `petId`. */
function contextFor(res: object, petId: string): ExecutionContext {
  return new ExecutionContextHost([{ params: { petId } }, res, () => undefined]);
}

describe('PetByIdSunsetGuard', () => {
  const before = { now: () => new Date('2027-01-01T00:00:00Z') };

  it('sets the deprecation, the sunset and the successor link', () => {
    const { res, headers } = response();
    expect(new PetByIdSunsetGuard(CONFIG, before).canActivate(contextFor(res, '12/3'))).toBe(true);
    expect(headers).toEqual(EXPECTED);
  });

  it('answers 410 from the sunset on, the fields set first', () => {
    const { res, headers } = response();
    const guard = new PetByIdSunsetGuard(CONFIG, { now: () => new Date('2027-06-30T00:00:00Z') });
    expect(() => guard.canActivate(contextFor(res, '7'))).toThrow(OperationSunsetError);
    expect(headers.Link).toBe('</pets?id=7>; rel="successor-version"');
  });
});
