import { ValidateIf } from 'class-validator';

/** Optional field that, when present, must not be null (unlike `@IsOptional`, which lets null through). */
export const OptionalButNotNull = (): PropertyDecorator =>
  ValidateIf((_object: object, value: unknown) => value !== undefined);
