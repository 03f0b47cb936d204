import { runInNewContext } from 'node:vm';
import { ValidationPipe } from '@nestjs/common';
import { Exclude, Expose, plainToInstance, Transform, type TransformFnParams, Type } from 'class-transformer';
import {
  Allow,
  ArrayUnique,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Min,
  registerDecorator,
  Validate,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { compileFastValidation, type DtoClass, type FastValidation, TRANSFORM_OPTIONS } from './fast-validation.js';
import { NestedObject } from './nested-object.decorator.js';
import { OptionalButNotNull } from './not-null.decorator.js';
import { QueryArray, QueryInt } from './query-transforms.js';
import { IsStorableText } from './storable-text.decorator.js';
import { createValidationPipe } from './validation.pipe.js';

const pipe = createValidationPipe();

/** What the pipe's full path (`super.transform`) makes of a body, or the error it throws. */
async function fullPath(value: unknown, metatype: DtoClass): Promise<{ accepted: unknown } | { refused: unknown }> {
  return (ValidationPipe.prototype.transform.call(pipe, value, { type: 'body', metatype }) as Promise<unknown>).then(
    (accepted) => ({ accepted }),
    (refused: unknown) => ({ refused }),
  );
}

function compiled(metatype: DtoClass): FastValidation {
  const fast = compileFastValidation(metatype);
  if (!fast) throw new Error(`${metatype.name} has no fast path`);
  return fast;
}

class Inner {
  @IsInt()
  n!: number;
}

class Pet {
  @IsString()
  @IsStorableText()
  name!: string;

  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  age?: number;

  @OptionalButNotNull()
  @IsIn(['a', 'b'])
  tag?: string;

  @IsOptional()
  @QueryArray()
  @IsIn(['x', 'y'], { each: true })
  @ArrayUnique()
  letters?: string[];
}

describe('compileFastValidation', () => {
  describe('leaves to the full path (null) a class with', () => {
    class NestedWithType {
      @NestedObject(() => Inner)
      inner!: Inner;
    }
    class Nested {
      @ValidateNested()
      inner!: Inner;
    }
    class Typed {
      @Type(() => Number)
      @IsInt()
      n!: number;
    }
    class Conditional {
      @ValidateIf((_object: object, value: unknown) => value !== 'skip')
      @IsString()
      s!: string;
    }
    class Grouped {
      @IsInt({ groups: ['admin'] })
      n!: number;
    }
    class PerConstraintCondition {
      @IsInt({ validateIf: () => true })
      n!: number;
    }
    class Exposed {
      @Expose({ name: 'other' })
      @IsInt()
      n!: number;
    }
    class Excluded {
      @Exclude()
      @IsInt()
      n!: number;
    }
    @Exclude()
    class ExcludeAll {
      @IsInt()
      n!: number;
    }
    class UnknownValidator {
      @ValidateBy({ name: 'isEven', validator: { validate: (value: unknown) => value === 2 } })
      n!: number;
    }
    class IsIntConstraint implements ValidatorConstraintInterface {
      validate = (value: unknown): boolean => Number.isInteger(value);
    }
    class ConstraintClass {
      @Validate(IsIntConstraint)
      n!: number;
    }
    class AsyncValidator {
      n!: number;
    }
    registerDecorator({
      name: 'isInt',
      target: AsyncValidator,
      propertyName: 'n',
      async: true,
      validator: { validate: (value: unknown) => Promise.resolve(Number.isInteger(value)) },
    });
    class Defined {
      @IsDefined()
      n!: number;
    }
    class Allowed {
      @Allow()
      n!: number;
    }
    class NoRules {
      n!: number;
    }
    class MethodNamed {
      @IsString()
      toString!: () => string;
    }
    class UndeclaredField {
      extra = 1;
      @IsInt()
      n!: number;
    }
    class NamedPrototype {
      @IsString()
      prototype!: string;
    }
    class FunctionField {
      @IsOptional()
      @IsString()
      format: unknown = () => 'x';
    }
    class StickyPattern {
      @Matches(/\d+/y)
      s!: string;
    }
    class GroupedTransform {
      @Transform(({ value }: TransformFnParams): unknown => value, { groups: ['admin'] })
      @IsInt()
      n!: number;
    }

    it.each([
      ['@NestedObject (@ValidateNested with @Type)', NestedWithType],
      ['@ValidateNested', Nested],
      ['@Type', Typed],
      ['a @ValidateIf of its own', Conditional],
      ['validation groups', Grouped],
      ['a per-constraint validateIf', PerConstraintCondition],
      ['@Expose', Exposed],
      ['@Exclude on a property', Excluded],
      ['@Exclude on the class', ExcludeAll],
      ['a custom validator it does not know', UnknownValidator],
      ['a validator constraint class', ConstraintClass],
      ['an asynchronous validator, even under a known name', AsyncValidator],
      ['@IsDefined', Defined],
      ['@Allow', Allowed],
      ['no rules at all', NoRules],
      ['a rule on a name its prototype has', MethodNamed],
      ['a field set by its constructor without rules', UndeclaredField],
      ['a rule on a key Nest strips (prototype)', NamedPrototype],
      ['a field whose initial value is a function', FunctionField],
      ['a sticky @Matches pattern', StickyPattern],
      ['a @Transform limited to groups', GroupedTransform],
    ])('%s', (_name, metatype: DtoClass) => {
      expect(compileFastValidation(metatype)).toBeNull();
    });
  });

  describe('on a supported class', () => {
    const fast = compiled(Pet);

    it('returns an instance equal to the full path’s for a valid body', async () => {
      const value = { letters: 'x', name: 'Rex', age: '3', tag: 'a' };
      const instance = fast(value);
      expect(instance).toBeInstanceOf(Pet);
      expect(Object.keys(instance ?? {})).toEqual(['letters', 'name', 'age', 'tag']);
      await expect(fullPath(value, Pet)).resolves.toStrictEqual({ accepted: instance });
    });

    it('accepts a null-prototype object, as the query parser gives', () => {
      expect(fast(Object.assign(Object.create(null) as object, { name: 'Rex' }))).toStrictEqual(
        Object.assign(new Pet(), { name: 'Rex' }),
      );
    });

    it.each([
      ['an unknown field', { name: 'Rex', color: 'brown' }],
      ['an own __proto__ key', JSON.parse('{"name":"Rex","__proto__":{"age":1}}') as unknown],
      ['a constructor key', { name: 'Rex', constructor: 'x' }],
      ['a null', { name: 'Rex', tag: null }],
      ['an undefined value', { name: 'Rex', tag: undefined }],
      ['a missing required field', {}],
      ['a number for a string', { name: 7 }],
      ['a failing constraint', { name: 'Rex', age: '0' }],
      ['a failing `each` constraint', { name: 'Rex', letters: ['x', 'z'] }],
      ['a repeated item under ArrayUnique', { name: 'Rex', letters: ['x', 'x'] }],
      ['an object value', { name: { first: 'Rex' } }],
      ['an array with a gap', { name: 'Rex', letters: [, 'x'] }], // eslint-disable-line no-sparse-arrays
      ['an array holding an object', { name: 'Rex', letters: [{}] }],
      ['a NUL character', { name: 'R\u0000ex' }],
      ['a lone surrogate', { name: 'R\uD800ex' }],
      ['an array', [{ name: 'Rex' }]],
      ['a class instance', Object.assign(new Pet(), { name: 'Rex' })],
      ['a Map', new Map([['name', 'Rex']])],
      ['a string', 'Rex'],
      ['null', null],
      ['undefined', undefined],
    ])('returns undefined for %s', (_name, value) => {
      expect(fast(value)).toBeUndefined();
    });

    it('copies an array made in another realm, as the query parser makes them under Jest', () => {
      const letters = runInNewContext("['x', 'y']") as unknown;
      expect(fast({ name: 'Rex', letters })).toStrictEqual(
        Object.assign(new Pet(), { name: 'Rex', letters: ['x', 'y'] }),
      );
    });

    it('returns undefined for an instance of an Array subclass', () => {
      class Letters extends Array<string> {}
      expect(fast({ name: 'Rex', letters: Letters.from(['x']) })).toBeUndefined();
    });

    it('does not change its input', () => {
      const value = { name: 'Rex', letters: ['x'], age: '2' };
      fast(value);
      expect(value).toStrictEqual({ name: 'Rex', letters: ['x'], age: '2' });
    });
  });

  it('gives @Transform functions the arguments class-transformer gives, in its order', () => {
    const calls: unknown[] = [];
    const record =
      (label: string) =>
      (params: TransformFnParams): unknown => {
        calls.push({ label, ...params });
        return `${String(params.value)}>${label}`;
      };
    class Parent {
      @Transform(record('parent'))
      @IsString()
      s!: string;
    }
    class Child extends Parent {
      @Transform(record('child 1'))
      @Transform(record('child 2'))
      @IsString()
      override s!: string;
    }
    const input = { s: 'v' };
    const viaClassTransformer = plainToInstance(Child, input, TRANSFORM_OPTIONS);
    const byClassTransformer = calls.splice(0);
    const fast = compiled(Child)(input);
    expect(calls).toEqual(byClassTransformer);
    expect(fast).toStrictEqual(viaClassTransformer);
  });

  it('reads inherited rules as class-validator does (a subclass’s rule of a kind replaces the parent’s)', async () => {
    class Parent {
      @IsInt()
      @Min(10)
      n!: number;
    }
    class Child extends Parent {
      @Min(1)
      override n!: number;
    }
    const fast = compiled(Child);
    for (const n of [0, 1, 5, 10, 1.5]) {
      const full = await fullPath({ n }, Child);
      expect(fast({ n })).toStrictEqual('accepted' in full ? full.accepted : undefined);
    }
  });

  it('keeps an @ArrayUnique identifier', () => {
    class Words {
      @ArrayUnique((word: string) => word.toLowerCase())
      words!: string[];
    }
    const fast = compiled(Words);
    expect(fast({ words: ['a', 'b'] })).toStrictEqual(Object.assign(new Words(), { words: ['a', 'b'] }));
    expect(fast({ words: ['a', 'A'] })).toBeUndefined();
  });

  it('returns undefined when a @Transform throws (the full path throws it again)', () => {
    class Throwing {
      @Transform(() => {
        throw new Error('no');
      })
      @IsString()
      s!: string;
    }
    expect(compiled(Throwing)({ s: 'v' })).toBeUndefined();
  });
});
