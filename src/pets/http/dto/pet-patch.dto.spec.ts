import { ValidationFailedError } from '@petstore/errors';
import { createValidationPipe } from '../../../shared/http/validation.pipe.js';
import { PetPatchDto } from './pet-patch.dto.js';

const pipe = createValidationPipe();
const parse = (value: unknown) => pipe.transform(value, { type: 'body', metatype: PetPatchDto });

async function rejection(value: unknown): Promise<string> {
  const outcome = await parse(value).then(
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
  return (error as Error).message;
}

describe('PetPatchDto (PATCH /pets/{petId} body)', () => {
  it('accepts any subset of the NewPet fields', async () => {
    expect({ ...(await parse({})) }).toEqual({});
    expect({ ...(await parse({ name: 'Max' })) }).toEqual({ name: 'Max' });
    expect({ ...(await parse({ status: 'sold', categoryId: 2 })) }).toEqual({ status: 'sold', categoryId: 2 });
  });

  it('validates present fields as NewPet does', async () => {
    const message = await rejection({ name: '', categoryId: '1', status: 'lost' });
    for (const field of ['name', 'categoryId', 'status']) expect(message).toContain(field);
  });

  it('rejects unknown fields', async () => {
    expect(await rejection({ id: 3 })).toContain('id is not an allowed field');
  });

  // null is a wrong type for each of these fields (PUT rejects it too); accepting it
  // would make PATCH silently ignore the field and answer 200.
  it.each(['name', 'categoryId', 'status'])('rejects %s: null', async (field) => {
    expect(await rejection({ [field]: null })).toContain(field);
  });
});
