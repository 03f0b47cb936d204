import { ValidationFailedError } from '@petstore/errors';
import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsOptional, IsString, IsUUID, Min, ValidateIf, ValidateNested } from 'class-validator';
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

  describe(): string {
    return `${this.q}@${this.page ?? 1}`;
  }
}

class WithNested {
  @NestedObject(() => Filter)
  inner!: Filter;
}

/** Decorators nothing in the service uses yet: any class-validator decorator works in any DTO. */
class Contact {
  @IsEmail()
  email!: string;

  @ValidateIf((contact: Contact) => contact.email.endsWith('.example'))
  @IsUUID()
  ticket?: string;

  @ValidateNested({ each: true })
  @Type(() => Filter)
  filters!: Filter[];
}

describe('createValidationPipe', () => {
  const pipe = createValidationPipe();
  const query = (value: object) =>
    pipe.transform(Object.assign(Object.create(null) as object, value), { type: 'query', metatype: Filter });
  const body = (value: unknown, metatype: new () => object) => pipe.transform(value, { type: 'body', metatype });

  it('turns a valid query (a null-prototype object, as the query parser gives) into the DTO', async () => {
    await expect(query({ q: 'cats', page: '2' })).resolves.toStrictEqual(
      Object.assign(new Filter(), { q: 'cats', page: 2 }),
    );
  });

  it('words a refusal as 400 VALIDATION_FAILED naming the field', async () => {
    await expect(query({ q: 'cats', page: '0' })).rejects.toThrow(
      new ValidationFailedError(['page must not be less than 1']),
    );
  });

  it('names unknown fields, dangerous ones included, from the raw input', async () => {
    const value = JSON.parse('{"q":"cats","__proto__":{"page":1},"color":"red"}') as unknown;
    await expect(body(value, Filter)).rejects.toThrow(
      new ValidationFailedError(['__proto__ is not an allowed field', 'color is not an allowed field']),
    );
  });

  it.each(['constructor', 'prototype', 'toString', 'hasOwnProperty', 'describe'])(
    'refuses a field named %s (class-transformer would skip it) like any unknown field, with the other problems',
    async (field) => {
      await expect(body({ [field]: 'x', page: 0 }, Filter)).rejects.toThrow(
        new ValidationFailedError([
          `${field} is not an allowed field`,
          'page must not be less than 1',
          'q must be a string',
        ]),
      );
    },
  );

  it('validates a nested DTO and names its fields by their path', async () => {
    await expect(body({ inner: { q: 'cats' } }, WithNested)).resolves.toBeInstanceOf(WithNested);
    await expect(body({ inner: { q: 7, page: 0, extra: 1 } }, WithNested)).rejects.toThrow(
      new ValidationFailedError([
        'inner.extra is not an allowed field',
        'inner.page must not be less than 1',
        'inner.q must be a string',
      ]),
    );
  });

  it('applies any class-validator decorator', async () => {
    const valid = { email: 'a@b.example', ticket: '3f2b8c1e-8d5a-4c1e-9a57-2f0e6d1b7c44', filters: [{ q: 'x' }] };
    await expect(body(valid, Contact)).resolves.toBeInstanceOf(Contact);
    await expect(body({ email: 'a@b.com', filters: [] }, Contact)).resolves.toBeInstanceOf(Contact);
    const refused = body({ email: 'nobody', filters: [{ q: 1 }] }, Contact);
    await expect(refused).rejects.toBeInstanceOf(ValidationFailedError);
    await expect(refused).rejects.toThrow(/\bemail\b.*\bfilters\.0\.q\b/);
  });

  it('leaves path parameters alone', async () => {
    await expect(pipe.transform('01', { type: 'param', metatype: Number, data: 'petId' })).resolves.toBe('01');
  });
});
