import {
  arrayMaxSize,
  arrayMinSize,
  equals,
  getMetadataStorage,
  IS_OPTIONAL,
  isArray,
  isBoolean,
  isDateString,
  isIn,
  isInt,
  isString,
  matches,
  max,
  maxLength,
  min,
  minLength,
  type MetadataStorage,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { validateUnlessAbsent } from './not-null.decorator.js';
import { IS_STORABLE_TEXT, isStorableText } from './storable-text.decorator.js';

export type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** Whether a property's value satisfies one constraint; `object` is the instance being validated. */
export type Check = (value: unknown, object: object) => boolean;

/** A `@ValidateIf`-style condition: the property's constraints apply only when every condition holds. */
export type Condition = (object: object, value: unknown) => boolean;

type CheckFactory = (
  constraints: readonly unknown[],
  metadata: ValidationMetadata,
  validator: ValidatorConstraintInterface,
) => Check | null;

type DateStringOptions = Parameters<typeof isDateString>[1];

// Declared for strings only, but it answers false for anything else itself.
const matchesAnything = matches as (value: unknown, pattern: RegExp | string, modifiers?: string) => boolean;

const withNumber = (bound: unknown, check: (value: unknown, bound: number) => boolean): Check | null =>
  typeof bound === 'number' ? (value) => check(value, bound) : null;

/**
 * The constraints the fast path evaluates, by their class-validator name, each with
 * class-validator's own standalone function and the decorator's constraints. A
 * factory answers null for constraints of a shape it does not expect.
 */
const CHECKS = new Map<string, CheckFactory>([
  ['isInt', () => isInt],
  ['isString', () => isString],
  ['isBoolean', () => isBoolean],
  ['isArray', () => isArray],
  [IS_STORABLE_TEXT, () => isStorableText],
  ['min', ([bound]) => withNumber(bound, min)],
  ['max', ([bound]) => withNumber(bound, max)],
  ['minLength', ([bound]) => withNumber(bound, minLength)],
  ['maxLength', ([bound]) => withNumber(bound, maxLength)],
  ['arrayMinSize', ([bound]) => withNumber(bound, arrayMinSize)],
  ['arrayMaxSize', ([bound]) => withNumber(bound, arrayMaxSize)],
  [
    'equals',
    ([expected]) =>
      (value) =>
        equals(value, expected),
  ],
  ['isIn', ([allowed]) => (Array.isArray(allowed) ? (value) => isIn(value, allowed) : null)],
  ['isDateString', ([options]) => dateStringCheck(options)],
  ['matches', ([pattern, modifiers]) => matchesCheck(pattern, modifiers)],
  ['arrayUnique', (_constraints, metadata, validator) => registeredValidatorCheck(metadata, validator)],
]);

function dateStringCheck(options: unknown): Check | null {
  if (options !== undefined && (typeof options !== 'object' || options === null)) return null;
  return (value) => isDateString(value, options as DateStringOptions);
}

function matchesCheck(pattern: unknown, modifiers: unknown): Check | null {
  if (modifiers !== undefined && typeof modifiers !== 'string') return null;
  // A sticky expression starts where its previous match ended: its answer depends on the request before.
  if (pattern instanceof RegExp) return pattern.sticky ? null : (value) => matchesAnything(value, pattern, modifiers);
  if (typeof pattern !== 'string' || modifiers?.includes('y')) return null;
  return (value) => matchesAnything(value, pattern, modifiers);
}

/**
 * ArrayUnique keeps its optional identifier in a closure, not in its constraints,
 * so the validator it registered is asked, with the arguments class-validator gives.
 */
function registeredValidatorCheck(metadata: ValidationMetadata, validator: ValidatorConstraintInterface): Check {
  return (value, object) =>
    validator.validate(value, {
      targetName: object.constructor.name,
      property: metadata.propertyName,
      object,
      value,
      constraints: metadata.constraints,
    }) === true;
}

/**
 * The check of a custom-validation metadata, or null when the fast path does not
 * evaluate it: a name it does not know, an asynchronous validator, a per-constraint
 * `validateIf`. With `each`, the items of an array are checked (a Set or a Map,
 * which class-validator also iterates, is left to the full path).
 */
export function compileCheck(metadata: ValidationMetadata): Check | null {
  const factory = metadata.name === undefined ? undefined : CHECKS.get(metadata.name);
  const registered = getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls);
  if (!factory || metadata.validateIf || registered.length !== 1) return null;
  const [validator] = registered;
  if (validator.async || validator.name !== metadata.name) return null;
  const check = factory(metadata.constraints ?? [], metadata, validator.instance);
  if (!check || !metadata.each) return check;
  return (value, object) => {
    if (Array.isArray(value)) return value.every((item) => check(item, object));
    return !(value instanceof Set || value instanceof Map) && check(value, object);
  };
}

/**
 * The condition of a conditional-validation metadata when it is one the fast path
 * knows (`@IsOptional`, `@OptionalButNotNull`): class-validator's own function,
 * called as class-validator calls it. Any other `@ValidateIf`: null.
 */
export function compileCondition(metadata: ValidationMetadata): Condition | null {
  const [condition]: readonly unknown[] = metadata.constraints ?? [];
  if (typeof condition !== 'function') return null;
  return metadata.name === IS_OPTIONAL || condition === validateUnlessAbsent ? (condition as Condition) : null;
}
