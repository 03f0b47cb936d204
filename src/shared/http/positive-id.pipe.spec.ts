import { ValidationFailedError } from '@petstore/errors';
import fc from 'fast-check';
import { PositiveIdPipe } from './positive-id.pipe.js';

describe('PositiveIdPipe', () => {
  class NoSuchThing extends Error {}
  const pipe = new PositiveIdPipe((id) => new NoSuchThing(`no thing ${id}`));
  const transform = (value: string, name = 'petId') => pipe.transform(value, { type: 'param', data: name });

  it.each([
    ['1', 1],
    ['42', 42],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('accepts %s as the number %d', (value, expected) => {
    expect(transform(value)).toBe(expected);
  });

  it("answers the resource's not-found for well-formed ids beyond 2^53, naming the id as sent", () => {
    expect(() => transform('9223372036854775807')).toThrow(new NoSuchThing('no thing 9223372036854775807'));
    expect(() => transform('9007199254740993')).toThrow(NoSuchThing);
  });

  it('accepts any safe positive integer written plainly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (id) => {
        expect(transform(String(id))).toBe(id);
      }),
    );
  });

  it.each([
    ['zero', '0'],
    ['negative', '-1'],
    ['leading zero', '01'],
    ['fraction', '1.5'],
    ['letters', 'abc'],
    ['one past int64', '9223372036854775808'],
    ['20 digits', '10000000000000000000'],
    ['empty', ''],
    ['plus sign', '+1'],
    ['exponent', '1e3'],
    ['hex', '0x1'],
    ['spaces', ' 1'],
    ['trailing space', '1 '],
    ['trailing newline', '1\n'],
    ['digits and letters', '12abc'],
    ['unicode digits', '١٢'],
  ])('rejects %s (%j) with 400 VALIDATION_FAILED naming the parameter', (_name, value) => {
    let error: unknown;
    try {
      transform(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect((error as Error).message).toContain('petId must be a positive 64-bit integer');
  });

  it('names the parameter it guards', () => {
    expect(() => transform('0', 'categoryId')).toThrow('categoryId must be a positive 64-bit integer');
  });
});
