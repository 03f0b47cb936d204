import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { ValidationFailedError } from '@petstore/errors';

const INT64_MAX = 9223372036854775807n;

/**
 * Path ids must be positive int64 in plain decimal: anything else is 400. A
 * well-formed id that matches nothing is the resource's 404 — including ids at or
 * above 2^53, which the sequences never reach and a JS number cannot hold, so they
 * are answered here without a query (the error names the id exactly as sent).
 */
export class PositiveIdPipe implements PipeTransform<string, number> {
  constructor(private readonly notFound: (id: string) => Error) {}

  transform(value: string, metadata: ArgumentMetadata): number {
    const name = metadata.data ?? 'id';
    if (!/^[1-9]\d{0,18}$/.test(value) || BigInt(value) > INT64_MAX) {
      throw new ValidationFailedError([`${name} must be a positive 64-bit integer`]);
    }
    const id = Number(value);
    if (!Number.isSafeInteger(id)) throw this.notFound(value);
    return id;
  }
}
