import { getMetadataStorage } from 'class-validator';
import fc from 'fast-check';

/**
 * Inputs for a DTO class, derived from its class-validator rules: plainly valid
 * ones, and ones that are nearly so (edge values, wrong types, nulls, unknown and
 * dangerous keys). A query is what `node:querystring` gives (a null-prototype
 * object of strings and string arrays), a body what `JSON.parse` gives.
 */
export type InputForm = 'query' | 'body';

type DtoClass = new () => object;

/** What the rules of one property say about its values. */
interface PropertyRules {
  readonly name: string;
  readonly optional: boolean;
  readonly array: boolean;
  readonly unique: boolean;
  readonly allowed?: readonly unknown[];
  readonly kind: 'int' | 'string' | 'boolean' | 'date' | 'pattern' | 'other';
  readonly pattern?: RegExp;
  readonly min?: number;
  readonly max?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minSize?: number;
  readonly maxSize?: number;
}

export function propertyRules(metatype: DtoClass): PropertyRules[] {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(metatype, '', false, false);
  return [...new Set(metadatas.map((metadata) => metadata.propertyName))].map((name) => {
    const own = metadatas.filter((metadata) => metadata.propertyName === name);
    const has = (ruleName: string): boolean => own.some((metadata) => metadata.name === ruleName);
    const constraints = (ruleName: string): readonly unknown[] | undefined =>
      own.find((metadata) => metadata.name === ruleName)?.constraints;
    const bound = (ruleName: string): number | undefined => constraints(ruleName)?.[0] as number | undefined;
    const [pattern, modifiers] = constraints('matches') ?? [];
    return {
      name,
      optional: own.some((metadata) => metadata.type === 'conditionalValidation'),
      array: has('isArray') || own.some((metadata) => metadata.each),
      unique: has('arrayUnique'),
      allowed: (constraints('isIn')?.[0] as readonly unknown[] | undefined) ?? constraints('equals')?.slice(0, 1),
      kind: has('isInt')
        ? 'int'
        : has('isBoolean')
          ? 'boolean'
          : has('isDateString')
            ? 'date'
            : pattern !== undefined
              ? 'pattern'
              : has('isString')
                ? 'string'
                : 'other',
      pattern:
        pattern instanceof RegExp ? pattern : pattern ? new RegExp(String(pattern), modifiers as string) : undefined,
      min: bound('min'),
      max: bound('max'),
      minLength: bound('minLength'),
      maxLength: bound('maxLength'),
      minSize: bound('arrayMinSize'),
      maxSize: bound('arrayMaxSize'),
    };
  });
}

/** An object with these entries, as the query parser or JSON.parse makes it (`__proto__` an own key). */
function objectOf(form: InputForm, entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = form === 'query' ? Object.create(null) : {};
  for (const [key, value] of entries)
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

const textOf = (value: unknown): string => String(value);

/** One value that the property's rules accept, often one at a bound. */
function validItem(rules: PropertyRules): fc.Arbitrary<unknown> {
  if (rules.allowed) return fc.constantFrom(...rules.allowed);
  switch (rules.kind) {
    case 'int': {
      const min = rules.min ?? -1_000_000;
      const max = rules.max ?? 1_000_000;
      return fc.oneof(fc.integer({ min, max: Math.min(max, min + 10_000) }), fc.constantFrom(min, max));
    }
    case 'boolean':
      return fc.boolean();
    case 'date':
      return fc.oneof(
        fc
          .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T00:00:00Z'), noInvalidDate: true })
          .map((date) => date.toISOString()),
        fc.constantFrom('2026-11-21T10:00:00Z', '2026-11-21T10:00:00+01:00', '2026-11-21'),
      );
    case 'pattern':
      return fc.stringMatching(rules.pattern ?? /^$/);
    default: {
      const minLength = rules.minLength ?? 0;
      const maxLength = rules.maxLength ?? 40;
      return fc.oneof(
        fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 40) }),
        fc.constantFrom('A'.repeat(minLength), 'A'.repeat(maxLength), '😀'.repeat(Math.max(minLength, 1))),
      );
    }
  }
}

/** A value just outside one of the item rules: past a bound, a near spelling, the wrong type. */
function nearMissItem(rules: PropertyRules, form: InputForm): fc.Arbitrary<unknown> {
  const misses: unknown[] = [];
  for (const value of rules.allowed ?? []) {
    misses.push(String(value).toUpperCase(), `${String(value)} `, String(value).slice(1));
    if (form === 'body') misses.push(String(value));
  }
  if (rules.kind === 'int') {
    const [min, max] = [rules.min ?? 0, rules.max ?? 1_000_000];
    misses.push(min - 1, max + 1, min + 0.5, -0);
    if (form === 'body') misses.push(String(min), true);
    else misses.push(`0${min}`, `${min}.0`, `+${min}`, ` ${min}`, `${min}e0`, `${max}0`);
  }
  if (rules.kind === 'boolean') misses.push(...(form === 'body' ? ['true', 1, 0] : ['TRUE', '1', 'yes', '']));
  if (rules.kind === 'date') {
    misses.push('2026-02-30T00:00:00Z', '2026-11-21 10:00:00Z', '2026-11-21T25:00:00Z', '2026-11-21T10:00:00', 1);
  }
  if (rules.kind === 'pattern') misses.push('2026-1-01', '2026-11-01 ', '20261101', '२०२६-११-०१', '');
  if (rules.kind === 'string') {
    const [minLength, maxLength] = [rules.minLength ?? 0, rules.maxLength ?? 40];
    misses.push('A'.repeat(maxLength + 1), '😀'.repeat(maxLength + 1), `A\u0000`, 'A\uD800', '\uDC00A', 7);
    if (minLength > 0) misses.push('A'.repeat(minLength - 1));
  }
  if (form === 'body') misses.push(null, {}, []);
  return fc.constantFrom(...(misses.length > 0 ? misses : ['x']));
}

function validValue(rules: PropertyRules, form: InputForm): fc.Arbitrary<unknown> {
  const item = form === 'query' ? validItem(rules).map(textOf) : validItem(rules);
  if (!rules.array) return item;
  const sizes = { minLength: rules.minSize ?? 0, maxLength: Math.min(rules.maxSize ?? 5, 5) };
  const items = rules.unique ? fc.uniqueArray(item, sizes) : fc.array(item, sizes);
  const full =
    rules.maxSize === undefined ? items : fc.array(item, { minLength: rules.maxSize, maxLength: rules.maxSize });
  // A repeated query parameter is an array, a single one a string.
  return form === 'query' ? fc.oneof(item, items, full) : rules.unique ? items : fc.oneof(items, full);
}

/** A value the rules refuse, but only just. */
function nearMissValue(rules: PropertyRules, form: InputForm): fc.Arbitrary<unknown> {
  const miss = nearMissItem(rules, form).map((value) =>
    form === 'query' && typeof value !== 'string' ? textOf(value) : value,
  );
  if (!rules.array) return miss;
  const item = form === 'query' ? validItem(rules).map(textOf) : validItem(rules);
  const sized = (length: number) => fc.array(item, { minLength: length, maxLength: length });
  const arrays: fc.Arbitrary<unknown>[] = [
    fc
      .tuple(fc.array(item, { maxLength: 3 }), miss, fc.array(item, { maxLength: 2 }))
      .map(([before, odd, after]) => [...before, odd, ...after]),
    item.map((value) => [value, value]),
  ];
  if (rules.maxSize !== undefined) arrays.push(sized(rules.maxSize + 1));
  if (rules.minSize !== undefined && rules.minSize > 0) arrays.push(sized(rules.minSize - 1));
  if (form === 'body') arrays.push(item, fc.constant(null));
  return fc.oneof(...arrays);
}

/** Numbers around every bound the rules mention. */
function boundaryNumbers(rules: readonly PropertyRules[]): number[] {
  const bounds = rules.flatMap((rule) => [
    rule.min,
    rule.max,
    rule.minLength,
    rule.maxLength,
    rule.minSize,
    rule.maxSize,
  ]);
  return bounds.filter((bound) => bound !== undefined).flatMap((bound) => [bound - 1, bound, bound + 1]);
}

const NUMBER_TEXTS = [
  '0',
  '1',
  '2',
  '01',
  '007',
  '1e3',
  '-0',
  '-1',
  ' 1',
  '1 ',
  '+1',
  '0x10',
  '1.5',
  '1.0',
  '9007199254740991',
  '9007199254740992',
  '12345678901234567',
  '99999999999999999999',
  '',
  'NaN',
  'Infinity',
  '١٢',
  '１',
];
const ODD_TEXTS = [
  'true',
  'false',
  'TRUE',
  'null',
  'undefined',
  '[]',
  '{}',
  'a',
  'R\u0000ex',
  'R\uD800ex',
  '\uDC00',
  '😀',
  ' ',
];
const UNKNOWN_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'prototype',
  'petId',
  'ID',
  'id ',
  'extra',
  'toFilter',
];

/** Text a client may send for any parameter: numbers in every odd spelling, huge ones, anything at all. */
function oddText(rules: readonly PropertyRules[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...NUMBER_TEXTS, ...ODD_TEXTS, ...boundaryNumbers(rules).map(textOf)),
    fc.integer().map(textOf),
    fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(textOf),
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'binary', maxLength: 6 }),
  );
}

/** Any value a query can hold: a string, or the array of a repeated parameter. */
function oddQueryValue(rules: readonly PropertyRules[]): fc.Arbitrary<unknown> {
  const text = oddText(rules);
  return fc.oneof(
    { weight: 3, arbitrary: text },
    { weight: 1, arbitrary: fc.array(text, { minLength: 1, maxLength: 5 }) },
  );
}

/** Any JSON value, numbers and text near the rules' bounds favoured. */
function oddJson(rules: readonly PropertyRules[]): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(
    fc.constantFrom(null, true, false, 0, -0, 1, -1, 1.5, 2 ** 53, 2 ** 53 - 1, 1e21, ...boundaryNumbers(rules)),
    oddText(rules),
    fc.integer(),
    fc.double(),
  );
  return fc.oneof(
    { weight: 4, arbitrary: scalar },
    { weight: 2, arbitrary: fc.array(scalar, { maxLength: 8 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
}

type Entry = readonly [string, unknown];

/**
 * Inputs for the class: plainly valid ones; valid ones with one field just wrong,
 * odd or missing; and ones made of anything. Keys in any order, sometimes with
 * unknown or dangerous ones (`__proto__`, `constructor`, a method's name).
 */
export function dtoInputs(metatype: DtoClass, form: InputForm): fc.Arbitrary<Record<string, unknown>> {
  const rules = propertyRules(metatype);
  const odd = form === 'query' ? oddQueryValue(rules) : oddJson(rules);
  const entry = (rule: PropertyRules, value: fc.Arbitrary<unknown>): fc.Arbitrary<Entry> =>
    value.map((v) => [rule.name, v] as const);
  const valid = fc.tuple(
    ...rules.map((rule) => {
      const present = entry(rule, validValue(rule, form));
      return rule.optional ? fc.option(present, { nil: undefined, freq: 2 }) : present;
    }),
  );
  const oneOff = fc.tuple(valid, fc.nat(rules.length - 1)).chain(([entries, index]) => {
    const rule = rules[index];
    const replaced = fc.oneof(
      { weight: 3, arbitrary: entry(rule, nearMissValue(rule, form)) },
      { weight: 1, arbitrary: entry(rule, odd) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
    return replaced.map((replacement) => entries.map((old, at) => (at === index ? replacement : old)));
  });
  const anything = fc.tuple(
    ...rules.map((rule) =>
      fc.option(
        fc.oneof(entry(rule, validValue(rule, form)), entry(rule, nearMissValue(rule, form)), entry(rule, odd)),
        { nil: undefined, freq: 3 },
      ),
    ),
  );
  const unknown = fc.tuple(fc.oneof(fc.constantFrom(...UNKNOWN_KEYS), fc.string({ maxLength: 6 })), odd);
  const extra = fc.oneof(
    { weight: 4, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(unknown, { minLength: 1, maxLength: 2 }) },
  );
  const declared = fc.oneof(
    { weight: 2, arbitrary: valid },
    { weight: 3, arbitrary: oneOff },
    { weight: 1, arbitrary: anything },
  );
  return fc
    .tuple(declared, extra)
    .map(([entries, unknowns]) => [...entries.filter((entry) => entry !== undefined), ...unknowns])
    .chain((all) => fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }))
    .map((all) => objectOf(form, all));
}
