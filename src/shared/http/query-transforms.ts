import { Transform } from 'class-transformer';

/** Strict integer parsing for query strings: "12" → 12; anything else stays a string and fails validation. */
export function toStrictInt(value: unknown): unknown {
  return typeof value === 'string' && /^(0|-?[1-9]\d{0,15})$/.test(value) ? Number(value) : value;
}

/** Strict boolean parsing for query strings: "true" → true, "false" → false; anything else is kept and fails validation. */
export function toStrictBoolean(value: unknown): unknown {
  return value === 'true' ? true : value === 'false' ? false : value;
}

/** Query parameter → number when it is a plain integer. */
export const QueryInt = (): PropertyDecorator => Transform(({ value }) => toStrictInt(value));

/** Repeatable query parameter (`?id=1&id=2`) → array, optionally mapping each item. */
export const QueryArray = (map: (item: unknown) => unknown = (item) => item): PropertyDecorator =>
  Transform(({ value }) => (Array.isArray(value) ? value : [value]).map(map));

/** Query parameter "true"/"false" → boolean; anything else stays a string and fails validation. */
export const QueryBoolean = (): PropertyDecorator => Transform(({ value }) => toStrictBoolean(value));
