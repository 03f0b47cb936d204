import { type ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { ValidationFailedError } from '@petstore/errors';
import { compileFastValidation, type FastValidation, TRANSFORM_OPTIONS } from './fast-validation.js';

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
 * Strict validation for bodies and queries: unknown fields, wrong types (no
 * implicit conversion) and out-of-range values are 400 `VALIDATION_FAILED`
 * naming every offending field.
 */
export function createValidationPipe(): ValidationPipe {
  return new BodyAndQueryValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transformOptions: TRANSFORM_OPTIONS,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationFailedError(describe(errors)),
  });
}

/**
 * Path parameters are left alone: the global pipe would turn `01`, `1e3` or `0x10`
 * into numbers before `PositiveIdPipe` could refuse them. A plainly valid input
 * takes the DTO's fast path (`fast-validation.ts`), which returns what the full
 * path would; anything else takes the full path, which words the error. Unknown
 * fields are also checked on the raw input, because class-transformer silently
 * drops keys such as `constructor` or `__proto__` before the whitelist check could
 * see them.
 */
class BodyAndQueryValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body' && metadata.type !== 'query') return value;
    const validated = fastValidationOf(metadata.metatype)?.(value);
    if (validated !== undefined) return validated;
    const unknown = unknownFields(value, metadata.metatype);
    if (unknown.length === 0) return super.transform(value, metadata) as Promise<unknown>;
    let others: readonly string[] = [];
    try {
      await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof ValidationFailedError)) throw error;
      others = error.problems.filter((problem) => !unknown.some((field) => problem.startsWith(`${field} `)));
    }
    throw new ValidationFailedError([...unknown.map((field) => `${field} is not an allowed field`), ...others]);
  }
}

/** The fast path of each DTO class (null: it has none), compiled on the class's first request. */
const fastValidationByClass = new WeakMap<object, FastValidation | null>();

function fastValidationOf(metatype: ArgumentMetadata['metatype']): FastValidation | null {
  if (typeof metatype !== 'function') return null;
  let fast = fastValidationByClass.get(metatype);
  if (fast === undefined) {
    fast = compileFastValidation(metatype);
    fastValidationByClass.set(metatype, fast);
  }
  return fast;
}

/** The validated fields of each DTO class, read from class-validator's metadata once per class. */
const knownFieldsByClass = new WeakMap<object, ReadonlySet<string>>();

function knownFields(metatype: NonNullable<ArgumentMetadata['metatype']>): ReadonlySet<string> {
  let known = knownFieldsByClass.get(metatype);
  if (!known) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
    known = new Set(metadata.map((meta) => meta.propertyName));
    knownFieldsByClass.set(metatype, known);
  }
  return known;
}

function unknownFields(value: unknown, metatype: ArgumentMetadata['metatype']): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof metatype !== 'function') return [];
  const known = knownFields(metatype);
  if (known.size === 0) return [];
  return Object.keys(value).filter((key) => !known.has(key));
}
