import type { ArgumentMetadata } from '@nestjs/common';
import { ValidationFailedError } from '@petstore/errors';
import { createValidationPipe } from '../../../shared/http/validation.pipe.js';
import { NewPetDto } from './new-pet.dto.js';

const pipe = createValidationPipe();
const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });

async function validationMessage(value: unknown, metatype: ArgumentMetadata['metatype'] = NewPetDto): Promise<string> {
  const outcome = await pipe.transform(value, body(metatype)).then(
    (accepted: unknown) => ({ accepted }),
    (error: unknown) => ({ error }),
  );
  if ('accepted' in outcome) {
    throw new Error(
      `expected 400 VALIDATION_FAILED, but ${JSON.stringify(value)} was accepted as ${JSON.stringify(outcome.accepted)}`,
    );
  }
  const { error } = outcome;
  expect(error).toBeInstanceOf(ValidationFailedError);
  expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  return (error as Error).message;
}

describe('createValidationPipe on NewPet', () => {
  it('turns a valid body into a NewPetDto with the same values', async () => {
    const pet = await pipe.transform({ name: 'Rex', categoryId: 1, status: 'sold' }, body(NewPetDto));
    expect(pet).toBeInstanceOf(NewPetDto);
    expect({ ...pet }).toEqual({ name: 'Rex', categoryId: 1, status: 'sold' });
  });

  it('lets status be omitted', async () => {
    const pet = (await pipe.transform({ name: 'Rex', categoryId: 1 }, body(NewPetDto))) as NewPetDto;
    expect(pet.status).toBeUndefined();
  });

  it('names every offending field in one message', async () => {
    const message = await validationMessage({ name: '', categoryId: 0, status: 'lost' });
    expect(message).toMatch(/^Invalid request: /);
    expect(message).toMatch(/\bname\b/);
    expect(message).toMatch(/\bcategoryId\b/);
    expect(message).toMatch(/\bstatus\b/);
  });

  it('names every missing required field', async () => {
    const message = await validationMessage({});
    expect(message).toMatch(/\bname\b/);
    expect(message).toMatch(/\bcategoryId\b/);
    expect(message).not.toMatch(/\bstatus\b/);
  });

  it('reports an unknown field as "<name> is not an allowed field"', async () => {
    const message = await validationMessage({ name: 'Rex', categoryId: 1, color: 'brown' });
    expect(message).toBe('Invalid request: color is not an allowed field');
  });

  it('reports an id sent in the body as not allowed', async () => {
    expect(await validationMessage({ id: 5, name: 'Rex', categoryId: 1 })).toContain('id is not an allowed field');
  });

  it('reports unknown fields together with wrong ones', async () => {
    const message = await validationMessage({ name: 7, categoryId: 1, owner: 'x', tags: [] });
    expect(message).toContain('owner is not an allowed field');
    expect(message).toContain('tags is not an allowed field');
    expect(message).toMatch(/\bname\b/);
  });

  it('does not convert the string "1" into a categoryId', async () => {
    expect(await validationMessage({ name: 'Rex', categoryId: '1' })).toMatch(/\bcategoryId\b/);
  });

  it('does not convert a number into a name', async () => {
    expect(await validationMessage({ name: 123, categoryId: 1 })).toMatch(/\bname\b/);
  });

  it('rejects a null status (absent is fine, null is not)', async () => {
    expect(await validationMessage({ name: 'Rex', categoryId: 1, status: null })).toMatch(/\bstatus\b/);
  });

  it.each([
    ['null name', { name: null, categoryId: 1 }, 'name'],
    ['empty name', { name: '', categoryId: 1 }, 'name'],
    ['101-character name', { name: 'x'.repeat(101), categoryId: 1 }, 'name'],
    ['null categoryId', { name: 'Rex', categoryId: null }, 'categoryId'],
    ['fractional categoryId', { name: 'Rex', categoryId: 1.5 }, 'categoryId'],
    ['negative categoryId', { name: 'Rex', categoryId: -1 }, 'categoryId'],
    ['unsafe categoryId', { name: 'Rex', categoryId: 2 ** 53 }, 'categoryId'],
    ['boolean categoryId', { name: 'Rex', categoryId: true }, 'categoryId'],
    ['unknown status', { name: 'Rex', categoryId: 1, status: 'lost' }, 'status'],
    ['status in another case', { name: 'Rex', categoryId: 1, status: 'Available' }, 'status'],
  ])('rejects a %s', async (_name, value, field) => {
    expect(await validationMessage(value)).toContain(field);
  });

  it('accepts a 100-character name', async () => {
    await expect(pipe.transform({ name: 'x'.repeat(100), categoryId: 1 }, body(NewPetDto))).resolves.toBeInstanceOf(
      NewPetDto,
    );
  });
});
