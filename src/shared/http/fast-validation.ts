import { type ClassTransformOptions, TransformationType, type TransformFnParams } from 'class-transformer';
import { defaultOptions } from 'class-transformer/cjs/constants/default-options.constant.js';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import {
  type Check,
  compileCheck,
  compileCondition,
  type Condition,
  type ValidationMetadata,
} from './fast-validation-rules.js';

/** The options the validation pipe gives `plainToInstance`; the fast path is built for exactly these. */
export const TRANSFORM_OPTIONS = { enableImplicitConversion: false } as const satisfies ClassTransformOptions;

/** The options object a `@Transform` function receives from class-transformer with them. */
const TRANSFORM_FN_OPTIONS: ClassTransformOptions = { ...defaultOptions, ...TRANSFORM_OPTIONS };

/** Read once: in the bundle, every read of an imported CommonJS binding is a getter call. */
const PLAIN_TO_CLASS = TransformationType.PLAIN_TO_CLASS;

/**
 * The instance the full path (`plainToInstance`, then `validate`) would return for
 * this input, or undefined when the input is not plainly valid: the full path then
 * decides, and words the error.
 */
export type FastValidation = (value: unknown) => object | undefined;

export type DtoClass = new () => object;

type Transform = (params: TransformFnParams) => unknown;

interface CompiledProperty {
  /** class-transformer's `@Transform` functions of the property, in the order it applies them. */
  readonly transforms: readonly Transform[];
  /** The property is validated only when all of these hold (`@IsOptional`, `@OptionalButNotNull`). */
  readonly conditions: readonly Condition[];
  readonly checks: readonly Check[];
}

/** Keys the full path strips from the input (Nest's `stripProtoKeys`) before class-transformer reads it. */
const STRIPPED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Returned by `copyField` for a value the fast path leaves to the full path. */
const UNUSUAL = Symbol('unusual');

/**
 * The fast path of a DTO class, built from its class-validator and class-transformer
 * metadata; null when the class uses anything the fast path does not evaluate itself
 * (nested objects, `@Type`, `@Expose`/`@Exclude`, groups, other conditions or
 * validators), so that it always takes the full path.
 */
export function compileFastValidation(metatype: DtoClass): FastValidation | null {
  const properties = compileProperties(metatype);
  if (!properties || !hasOnlyDeclaredFields(metatype, properties)) return null;
  return (value) => {
    if (!isPlainObject(value)) return undefined;
    try {
      return instanceIfValid(metatype, properties, value);
    } catch {
      return undefined; // a throwing @Transform: the full path throws it again
    }
  };
}

function instanceIfValid(
  metatype: DtoClass,
  properties: ReadonlyMap<string, CompiledProperty>,
  value: Record<string, unknown>,
): object | undefined {
  // As plainToInstance: a new instance, the input's own keys in their order, each transformed.
  const instance = new metatype() as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    // An unknown field, `__proto__` or `constructor` among them: the full path names it.
    const property = properties.get(key);
    if (property === undefined) return undefined;
    let field = copyField(value[key]);
    if (field === UNUSUAL) return undefined;
    for (const transform of property.transforms) {
      field = transform({
        value: field,
        key,
        obj: value,
        type: PLAIN_TO_CLASS,
        options: TRANSFORM_FN_OPTIONS,
      });
    }
    instance[key] = field;
  }
  // As validate: every declared property, present or not, read from the instance.
  for (const [name, property] of properties) {
    const field = instance[name];
    if (!property.conditions.every((condition) => condition(instance, field))) continue;
    if (!property.checks.every((check) => check(field, instance))) return undefined;
  }
  return instance;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  // A JSON body has Object.prototype; the query parser (node:querystring) gives null.
  return prototype === Object.prototype || prototype === null;
}

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * What class-transformer makes of a field: a scalar as it is, a dense array of
 * scalars copied. Not an instance of an Array subclass: its prototype must be an
 * Array.prototype, of any realm (`node:querystring` makes its arrays in Node's own,
 * which is not the tests' under Jest).
 */
function copyField(field: unknown): unknown {
  if (isScalar(field)) return field;
  if (!Array.isArray(field) || !Array.isArray(Object.getPrototypeOf(field))) return UNUSUAL;
  const copy: unknown[] = [];
  for (let index = 0; index < field.length; index++) {
    const item: unknown = field[index];
    if (!(index in field) || !isScalar(item)) return UNUSUAL;
    copy.push(item);
  }
  return copy;
}

/** Each validated property's transforms, conditions and checks; null when one is beyond the fast path. */
function compileProperties(metatype: DtoClass): Map<string, CompiledProperty> | null {
  // The arguments class-validator's `validate` uses (no schema, groups or `always`).
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(metatype, '', false, false);
  if (metadatas.length === 0) return null; // the full path refuses any value of a class without rules
  if (!hasPlainTransformation(metatype)) return null;
  const properties = new Map<string, CompiledProperty>();
  for (const name of new Set(metadatas.map((metadata) => metadata.propertyName))) {
    const property = compileProperty(
      metatype,
      name,
      metadatas.filter((metadata) => metadata.propertyName === name),
    );
    if (!property) return null;
    properties.set(name, property);
  }
  return properties;
}

function compileProperty(
  metatype: DtoClass,
  name: string,
  metadatas: readonly ValidationMetadata[],
): CompiledProperty | null {
  // Nest strips these keys from the input; class-transformer skips or calls a method or accessor (`toFilter`, …).
  if (STRIPPED_KEYS.has(name) || name in (metatype.prototype as object)) return null;
  if (defaultMetadataStorage.findTypeMetadata(metatype, name)) return null;
  const transformMetadatas = defaultMetadataStorage.findTransformMetadatas(
    metatype,
    name,
    TransformationType.PLAIN_TO_CLASS,
  );
  if (transformMetadatas.some(({ options }) => options?.groups?.length)) return null;
  const conditions: Condition[] = [];
  const checks: Check[] = [];
  for (const metadata of metadatas) {
    if (metadata.groups?.length) return null;
    if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      const condition = compileCondition(metadata);
      if (!condition) return null;
      conditions.push(condition);
    } else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION) {
      const check = compileCheck(metadata);
      if (!check) return null;
      checks.push(check);
    } else {
      return null; // nested, promise, `@IsDefined`, `@Allow`
    }
  }
  return { transforms: transformMetadatas.map(({ transformFn }) => transformFn), conditions, checks };
}

/** No `@Expose`/`@Exclude` anywhere in the class: class-transformer then copies exactly the input's own keys. */
function hasPlainTransformation(metatype: DtoClass): boolean {
  return (
    defaultMetadataStorage.getStrategy(metatype) === 'none' &&
    defaultMetadataStorage.getExposedMetadatas(metatype).length === 0 &&
    defaultMetadataStorage.getExcludedMetadatas(metatype).length === 0
  );
}

/**
 * A constructor that sets a field without rules would have the full path refuse
 * every input; one that sets a function makes class-transformer skip that key.
 */
function hasOnlyDeclaredFields(metatype: DtoClass, properties: ReadonlyMap<string, CompiledProperty>): boolean {
  try {
    return Object.entries(new metatype()).every(([key, value]) => properties.has(key) && typeof value !== 'function');
  } catch {
    return false;
  }
}
