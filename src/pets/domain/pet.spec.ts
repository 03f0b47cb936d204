import fc from 'fast-check';
import { newPet, patchPet, type Pet, type PetChanges, replacePet } from './pet.js';
import { PET_STATUSES } from './pet-status.js';

const status = fc.constantFrom(...PET_STATUSES);
const id = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
const pet: fc.Arbitrary<Pet> = fc.record({ id, name: fc.string({ minLength: 1 }), categoryId: id, status });
const changes: fc.Arbitrary<PetChanges> = fc.record(
  { name: fc.string({ minLength: 1 }), categoryId: id, status },
  { requiredKeys: [] },
);

describe('newPet', () => {
  it('defaults the status to available', () => {
    expect(newPet({ name: 'Rex', categoryId: 1 })).toEqual({ name: 'Rex', categoryId: 1, status: 'available' });
  });

  it.each(PET_STATUSES)('keeps a given status (%s)', (given) => {
    expect(newPet({ name: 'Rex', categoryId: 1, status: given }).status).toBe(given);
  });

  it('carries only the NewPet fields and no id', () => {
    const draft = { name: 'Rex', categoryId: 2, status: 'sold' as const, id: 99, colour: 'brown' };
    expect(newPet(draft)).toStrictEqual({ name: 'Rex', categoryId: 2, status: 'sold' });
  });
});

describe('replacePet', () => {
  const rex: Pet = { id: 7, name: 'Rex', categoryId: 1, status: 'sold' };

  it('replaces every field but the id', () => {
    expect(replacePet(rex, { name: 'Tom', categoryId: 2, status: 'pending' })).toEqual({
      id: 7,
      name: 'Tom',
      categoryId: 2,
      status: 'pending',
    });
  });

  it('returns an omitted status to available', () => {
    expect(replacePet(rex, { name: 'Rex', categoryId: 1 }).status).toBe('available');
  });

  it('does not modify the pet it was given', () => {
    const before = { ...rex };
    replacePet(rex, { name: 'Tom', categoryId: 2 });
    expect(rex).toEqual(before);
  });
});

describe('patchPet', () => {
  const rex: Pet = { id: 7, name: 'Rex', categoryId: 1, status: 'sold' };

  it('keeps every field when nothing changes', () => {
    expect(patchPet(rex, {})).toEqual(rex);
  });

  it.each<[PetChanges, Pet]>([
    [{ name: 'Tom' }, { id: 7, name: 'Tom', categoryId: 1, status: 'sold' }],
    [{ categoryId: 3 }, { id: 7, name: 'Rex', categoryId: 3, status: 'sold' }],
    [{ status: 'available' }, { id: 7, name: 'Rex', categoryId: 1, status: 'available' }],
  ])('changes only the fields present: %j', (change, expected) => {
    expect(patchPet(rex, change)).toEqual(expected);
  });

  it('keeps a field whose key is present but undefined', () => {
    expect(patchPet(rex, { name: undefined, status: undefined })).toEqual(rex);
  });

  it('never changes the id, and present fields win while absent ones are kept', () => {
    fc.assert(
      fc.property(pet, changes, (before, change) => {
        const after = patchPet(before, change);
        expect(after.id).toBe(before.id);
        expect(after.name).toBe(change.name ?? before.name);
        expect(after.categoryId).toBe(change.categoryId ?? before.categoryId);
        expect(after.status).toBe(change.status ?? before.status);
      }),
    );
  });

  it('with every field present is the same as a full replace', () => {
    fc.assert(
      fc.property(pet, fc.record({ name: fc.string({ minLength: 1 }), categoryId: id, status }), (before, draft) => {
        expect(patchPet(before, draft)).toEqual(replacePet(before, draft));
      }),
    );
  });
});
