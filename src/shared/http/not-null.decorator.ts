import { ValidateIf } from 'class-validator';

/**
 * The condition of `OptionalButNotNull`: the field is validated unless absent.
 * One function for every use, so the fast validation path can recognise it.
 */
export const validateUnlessAbsent = (_object: object, value: unknown): boolean => value !== undefined;

/** Optional field that, when present, must not be null (unlike `@IsOptional`, which lets null through). */
export const OptionalButNotNull = (): PropertyDecorator => ValidateIf(validateUnlessAbsent);
