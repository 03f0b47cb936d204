import { type ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidationFailedError } from '@petstore/errors';

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
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationFailedError(describe(errors)),
  });
}

/**
 * Path parameters are left alone: the global pipe would turn `01`, `1e3` or `0x10`
 * into numbers before `PositiveIdPipe` could refuse them.
 */
class BodyAndQueryValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body' && metadata.type !== 'query') return Promise.resolve(value);
    return super.transform(value, metadata) as Promise<unknown>;
  }
}
