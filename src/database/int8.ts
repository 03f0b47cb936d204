/**
 * `pg` and TypeORM hand int8 (bigint) values over as strings to avoid precision
 * loss. Ids come from sequences and stay far below 2^53, and the API shows them as
 * JSON numbers, so every mapper converts them here.
 */
export function fromInt8(value: string | number): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError(`int8 value ${value} is beyond the safe integer range`);
  return number;
}

/** An id as an int8 column value (the ORM entities type int8 columns as strings). */
export function toInt8(id: number): string {
  return String(id);
}
