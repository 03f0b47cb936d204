import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * Text PostgreSQL can store exactly as sent: no NUL characters (rejected by the
 * server) and no unpaired UTF-16 surrogates (silently replaced with U+FFFD).
 */
function isStorableText(value: unknown): boolean {
  return typeof value === 'string' && !value.includes('\u0000') && value.isWellFormed();
}

export function IsStorableText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStorableText',
      validator: {
        validate: (value: unknown) => isStorableText(value),
        defaultMessage: () => '$property must not contain NUL characters or unpaired surrogates',
      },
    },
    options,
  );
}
