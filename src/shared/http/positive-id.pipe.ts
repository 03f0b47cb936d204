import { Injectable, PipeTransform, ArgumentMetadata } from '@nestjs/common';
import { ValidationFailedError } from '@petstore/errors';

const INT64_MAX = 9223372036854775807n;
const NO_SUCH_ID = 0;

/**
 * Path ids must be positive int64 in plain decimal: anything else is 400, a
 * well-formed id that matches nothing is the resource's 404.
 */
@Injectable()
export class PositiveIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const name = metadata.data ?? 'id';
    if (!/^[1-9]\d{0,18}$/.test(value) || BigInt(value) > INT64_MAX) {
      throw new ValidationFailedError([`${name} must be a positive 64-bit integer`]);
    }
    const id = Number(value);
    // Sequences never reach 2^53; such ids exist nowhere, so they become 0, which
    // matches no row and answers the resource's 404 (never a different row).
    return Number.isSafeInteger(id) ? id : NO_SUCH_ID;
  }
}
