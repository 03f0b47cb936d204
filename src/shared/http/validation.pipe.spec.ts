import { ValidationPipe } from '@nestjs/common';
import { ValidationFailedError } from '@petstore/errors';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { NestedObject } from './nested-object.decorator.js';
import { QueryInt } from './query-transforms.js';
import { createValidationPipe } from './validation.pipe.js';

class Filter {
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  page?: number;

  @IsString()
  q!: string;
}

class WithNested {
  @NestedObject(() => Filter)
  inner!: Filter;
}

describe('createValidationPipe', () => {
  const pipe = createValidationPipe();
  // Calls of super.transform, the full path (counted by a wrapper: no `jest` global in ES modules).
  const original = ValidationPipe.prototype.transform;
  let fullPathCalls = 0;

  beforeEach(() => {
    fullPathCalls = 0;
    ValidationPipe.prototype.transform = function (this: ValidationPipe, ...args) {
      fullPathCalls++;
      return original.apply(this, args);
    };
  });

  afterEach(() => {
    ValidationPipe.prototype.transform = original;
  });

  const query = (value: object) =>
    pipe.transform(Object.assign(Object.create(null) as object, value), { type: 'query', metatype: Filter });

  it('answers a plainly valid query from the fast path, without the full path', async () => {
    await expect(query({ q: 'cats', page: '2' })).resolves.toStrictEqual(
      Object.assign(new Filter(), { q: 'cats', page: 2 }),
    );
    expect(fullPathCalls).toBe(0);
  });

  it('leaves an invalid query to the full path, which words the error as before', async () => {
    await expect(query({ q: 'cats', page: '0' })).rejects.toThrow(
      new ValidationFailedError(['page must not be less than 1']),
    );
    expect(fullPathCalls).toBe(1);
  });

  it('names unknown fields, dangerous ones included, from the raw input', async () => {
    const body = JSON.parse('{"q":"cats","__proto__":{"page":1},"color":"red"}') as unknown;
    await expect(pipe.transform(body, { type: 'body', metatype: Filter })).rejects.toThrow(
      new ValidationFailedError(['__proto__ is not an allowed field', 'color is not an allowed field']),
    );
  });

  it('validates a class the fast path does not support on the full path', async () => {
    await expect(
      pipe.transform({ inner: { q: 'cats' } }, { type: 'body', metatype: WithNested }),
    ).resolves.toBeInstanceOf(WithNested);
    expect(fullPathCalls).toBe(1);
  });

  it('leaves path parameters alone', async () => {
    await expect(pipe.transform('01', { type: 'param', metatype: Number, data: 'petId' })).resolves.toBe('01');
    expect(fullPathCalls).toBe(0);
  });
});
