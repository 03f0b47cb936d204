import { type ArgumentMetadata, type ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidationFailedError } from '@petstore/errors';

/** One problem per offending field, nested ones named by their path (`limits.perDay must not be less than 1`). */
function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, message]) => {
      if (constraint === 'whitelistValidation') return `${path} is not an allowed field`;
      return message.startsWith(error.property) ? path + message.slice(error.property.length) : `${path}: ${message}`;
    });
    return [...own, ...describe(error.children ?? [], path)];
  });
}

/**
 * Nest's `ValidationPipe`, strict: unknown fields, wrong types (no implicit
 * conversion) and out-of-range values are 400 `VALIDATION_FAILED` naming every
 * offending field. Any class-validator decorator works in any DTO.
 */
export function createValidationPipe(): ValidationPipe {
  return new BodyAndQueryValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationFailedError(describe(errors)),
  });
}

/** Keys Nest deletes from the input (against prototype pollution) before class-transformer reads it. */
const STRIPPED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Validates bodies and queries only. Path parameters are left to their own pipes:
 * with `transform`, the global pipe would turn `01`, `1e3` or `0x10` into numbers
 * before `PositiveIdPipe` could refuse them.
 *
 * A key that names a member of the DTO's prototype (`toString`, `hasOwnProperty`,
 * a method such as `toFilter`) or that Nest strips (`__proto__`, `constructor`)
 * never reaches the whitelist check: class-transformer skips it silently. Such keys
 * are refused here like any other unknown field, together with the other problems.
 */
class BodyAndQueryValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body' && metadata.type !== 'query') return value;
    const skipped = this.toValidate(metadata) ? keysSkippedByTransformer(value, metadata.metatype) : [];
    if (skipped.length === 0) return super.transform(value, metadata) as Promise<unknown>;
    let others: readonly string[] = [];
    try {
      await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof ValidationFailedError)) throw error;
      others = error.problems;
    }
    throw new ValidationFailedError([...skipped.map((field) => `${field} is not an allowed field`), ...others]);
  }
}

function keysSkippedByTransformer(value: unknown, metatype: ArgumentMetadata['metatype']): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof metatype !== 'function') return [];
  const prototype = metatype.prototype as object;
  return Object.keys(value).filter((key) => STRIPPED_KEYS.has(key) || key in prototype);
}
