import { Injectable, Module } from '@nestjs/common';
import fc from 'fast-check';
import request from 'supertest';
import { AppModule } from '../src/app.module.js';
import { PetsModule, PetsService } from '../src/pets/index.js';
import { encodeCursor as cursorAfter } from '../src/shared/paging/cursor.js';
import { expectError, followPages, KEY, nextLink, rawJson } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Status = 'available' | 'pending' | 'sold';
interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: Status;
}

const STATUSES: readonly Status[] = ['available', 'pending', 'sold'];

/** Another team's module using the catalogue: it imports PetsModule and injects PetsService. */
@Injectable()
class PetsUser {
  constructor(readonly pets: PetsService) {}
}

@Module({ imports: [PetsModule], providers: [PetsUser] })
class PetsUserModule {}

describe('pets (e2e)', () => {
  let t: TestApp;
  let writer: string;
  let reader: string;
  let dogs: number;
  let cats: number;

  const api = () => request(t.http);

  async function newCategory(name: string): Promise<number> {
    const res = await api().post('/categories').set(KEY, writer).send({ name });
    expect(res.status).toBe(201);
    return (res.body as { id: number }).id;
  }

  async function newPet(body: Record<string, unknown>): Promise<Pet> {
    const res = await api().post('/pets').set(KEY, writer).send(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
    return res.body as Pet;
  }

  /** The pet as the successor of the deprecated GET /pets/{petId} shows it (or undefined). */
  async function readPet(id: number): Promise<Pet | undefined> {
    const res = await api().get(`/pets?id=${id}`).set(KEY, reader).expect(200);
    return (res.body as Pet[])[0];
  }

  async function allPetIds(): Promise<number[]> {
    const pages = await followPages(t.http, reader, '/pets?limit=100');
    return pages.flatMap((page) => (page.body as Pet[]).map((pet) => pet.id));
  }

  beforeAll(async () => {
    t = await createTestApp({}, { rootModule: AppModule.register({ modules: [PetsUserModule] }) });
    await t.reset();
    writer = await t.key(['read', 'write'], 'enterprise');
    reader = await t.key(['read'], 'enterprise');
    dogs = await newCategory('Dogs');
    cats = await newCategory('Cats');
  });
  afterAll(() => t.close());

  describe('POST /pets', () => {
    it('creates a pet: 201, Location, numeric ids and status available by default', async () => {
      const res = await api().post('/pets').set(KEY, writer).send({ name: 'Rex', categoryId: dogs }).expect(201);
      expect(res.body).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: dogs, status: 'available' });
      expect(Object.keys(res.body as object).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
      const pet = res.body as Pet;
      expect(Number.isSafeInteger(pet.id) && pet.id > 0).toBe(true);
      expect(res.text).toMatch(new RegExp(`"id":${pet.id}\\b`));
      expect(res.text).toMatch(new RegExp(`"categoryId":${dogs}\\b`));
      expect(res.headers.location).toBe(`/pets/${pet.id}`);
      expect(await readPet(pet.id)).toEqual(pet);
    });

    it.each(STATUSES)('keeps a given status (%s)', async (status) => {
      const pet = await newPet({ name: `Status ${status}`, categoryId: cats, status });
      expect(pet.status).toBe(status);
      expect(await readPet(pet.id)).toEqual(pet);
    });

    it('accepts names of 1 and of 100 characters', async () => {
      expect((await newPet({ name: 'R', categoryId: dogs })).name).toBe('R');
      const long = 'n'.repeat(100);
      expect((await newPet({ name: long, categoryId: dogs })).name).toBe(long);
    });

    it('answers 422 CATEGORY_NOT_FOUND for a categoryId that does not exist, and creates nothing', async () => {
      const before = await allPetIds();
      const res = await api().post('/pets').set(KEY, writer).send({ name: 'Ghost', categoryId: 987_654_321 });
      expectError(res, 422, 'CATEGORY_NOT_FOUND');
      expect(await allPetIds()).toEqual(before);
    });

    it('names every offending field in one 400 VALIDATION_FAILED', async () => {
      const before = await allPetIds();
      const res = await api()
        .post('/pets')
        .set(KEY, writer)
        .send({ name: '', categoryId: '1', status: null, colour: 'brown' });
      expectError(res, 400, 'VALIDATION_FAILED');
      const message = (res.body as { message: string }).message;
      for (const field of ['name', 'categoryId', 'status', 'colour'])
        expect(message).toMatch(new RegExp(`\\b${field}\\b`));
      expect(await allPetIds()).toEqual(before);
    });

    const invalid: Array<[string, Record<string, unknown>, string]> = [
      ['an empty name', { name: '' }, 'name'],
      ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
      ['a numeric name', { name: 42 }, 'name'],
      ['a null name', { name: null }, 'name'],
      ['a missing name', { name: undefined }, 'name'],
      ['a string categoryId', { categoryId: '1' }, 'categoryId'],
      ['a fractional categoryId', { categoryId: 1.5 }, 'categoryId'],
      ['a zero categoryId', { categoryId: 0 }, 'categoryId'],
      ['a negative categoryId', { categoryId: -1 }, 'categoryId'],
      ['a boolean categoryId', { categoryId: true }, 'categoryId'],
      ['a null categoryId', { categoryId: null }, 'categoryId'],
      ['a missing categoryId', { categoryId: undefined }, 'categoryId'],
      ['a null status', { status: null }, 'status'],
      ['an unknown status', { status: 'lost' }, 'status'],
      ['a status in the wrong case', { status: 'AVAILABLE' }, 'status'],
      ['a status array', { status: ['available'] }, 'status'],
      ['an unknown field', { colour: 'brown' }, 'colour'],
      ['an id in the body', { id: 7 }, 'id'],
    ];
    it.each(invalid)('refuses %s with 400 VALIDATION_FAILED naming the field', async (_, change, field) => {
      const body: Record<string, unknown> = { name: 'Valid', categoryId: dogs, ...change };
      const res = await api().post('/pets').set(KEY, writer).send(body);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect((res.body as { message: string }).message).toMatch(new RegExp(`\\b${field}\\b`));
    });

    it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
      'refuses the unknown field %s like any other unknown field',
      async (field) => {
        const before = await allPetIds();
        const res = await rawJson(
          api().post('/pets').set(KEY, writer),
          `{"name":"Proto","categoryId":${dogs},"${field}":{"polluted":true}}`,
        );
        expectError(res, 400, 'VALIDATION_FAILED');
        expect((res.body as { message: string }).message).toContain(field);
        expect(await allPetIds()).toEqual(before);
      },
    );

    it('refuses a name containing a NUL character with 400, not 500', async () => {
      const res = await api().post('/pets').set(KEY, writer).send({ name: 'Re\u0000x', categoryId: dogs });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect((res.body as { message: string }).message).toMatch(/\bname\b/);
    });

    it('stores what it answers: a name with a lone surrogate is refused or kept exactly', async () => {
      const res = await api().post('/pets').set(KEY, writer).send({ name: 'Re\ud800x', categoryId: dogs });
      if (res.status === 400) {
        expectError(res, 400, 'VALIDATION_FAILED');
        return;
      }
      expect(res.status).toBe(201);
      // JSON text escapes a lone surrogate (\\ud800) but not its replacement U+FFFD: a readable diff.
      expect(JSON.stringify(await readPet((res.body as Pet).id))).toBe(JSON.stringify(res.body));
    });
  });

  describe('GET /pets filters', () => {
    let a: number;
    let b: number;
    const pets: Pet[] = [];
    const ids = (list: Pet[]) => list.map((pet) => pet.id);
    const list = async (query: string) => {
      const res = await api().get(`/pets?${query}`).set(KEY, reader);
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
      return res.body as Pet[];
    };

    beforeAll(async () => {
      a = await newCategory('Filter A');
      b = await newCategory('Filter B');
      const plan: Array<[number, Status]> = [
        [a, 'available'],
        [b, 'sold'],
        [a, 'pending'],
        [a, 'available'],
        [b, 'available'],
        [a, 'sold'],
        [b, 'sold'],
        [a, 'pending'],
        [b, 'available'],
        [a, 'available'],
      ];
      for (const [categoryId, status] of plan) {
        pets.push(await newPet({ name: `F${pets.length}`, categoryId, status }));
      }
    });

    it('filters by categoryId, in ascending id order', async () => {
      expect(ids(await list(`categoryId=${a}&limit=100`))).toEqual(ids(pets.filter((p) => p.categoryId === a)));
      expect(await list(`categoryId=${b}&limit=100`)).toEqual(pets.filter((p) => p.categoryId === b));
    });

    it('filters by one status, and by several when status is repeated', async () => {
      expect(await list(`categoryId=${a}&status=available`)).toEqual(
        pets.filter((p) => p.categoryId === a && p.status === 'available'),
      );
      expect(await list(`status=sold&status=pending&categoryId=${a}`)).toEqual(
        pets.filter((p) => p.categoryId === a && p.status !== 'available'),
      );
      const sold = await list('status=sold&limit=100');
      expect(sold.length).toBeGreaterThan(0);
      expect(sold.every((p) => p.status === 'sold')).toBe(true);
      expect(ids(sold)).toEqual(expect.arrayContaining(ids(pets.filter((p) => p.status === 'sold'))));
    });

    it('filters by id (repeatable), ignoring ids that do not exist, in ascending order', async () => {
      const [p0, , p2, , p4] = pets;
      expect(await list(`id=${p4.id}&id=999999999&id=${p0.id}&id=${p2.id}`)).toEqual([p0, p2, p4]);
      expect(await list(`id=${p2.id}`)).toEqual([p2]);
      expect(await list('id=999999999')).toEqual([]);
    });

    it('answers requests that arrive together each with its own pets, pages and ETag', async () => {
      const [p0, p1, p2, , p4] = pets;
      const asked = [
        { path: `/pets/${p2.id}`, status: 200, body: p2 },
        { path: '/pets/999999999', status: 404 },
        { path: `/pets?id=${p4.id}&id=${p0.id}&id=${p4.id}`, status: 200, body: [p0, p4] },
        { path: `/pets?id=${p1.id}`, status: 200, body: [p1] },
        { path: `/pets/${p0.id}`, status: 200, body: p0 },
        {
          path: `/pets?categoryId=${b}&limit=2`,
          status: 200,
          body: pets.filter((p) => p.categoryId === b).slice(0, 2),
        },
        { path: `/pets?limit=2&cursor=${cursorAfter(p0.id)}`, status: 200, body: [p1, p2] },
        { path: `/pets?limit=1&cursor=${cursorAfter(p1.id)}`, status: 200, body: [p2] },
        { path: `/pets/${p2.id}`, status: 200, body: p2 },
      ];
      const responses = await Promise.all(asked.map(({ path }) => api().get(path).set(KEY, reader)));
      expect(responses.map((res) => res.status)).toEqual(asked.map((a) => a.status));
      asked.forEach(({ body }, i) => body && expect(responses[i].body).toEqual(body));
      // Each answer's ETag is its own body's: the same pet asked twice, the same tag.
      expect(responses[0].headers.etag).toBe(responses[8].headers.etag);
      expect(new Set(responses.map((res) => res.headers.etag)).size).toBe(asked.length - 1);
    });

    it('combines every filter', async () => {
      const wanted = pets.filter((p) => p.categoryId === b && p.status === 'sold');
      const query = [...pets.map((p) => `id=${p.id}`), `categoryId=${b}`, 'status=sold'].join('&');
      expect(await list(query)).toEqual(wanted);
      expect(await list(`id=${pets[0].id}&status=sold`)).toEqual([]);
    });

    it('answers an empty page for a category without pets', async () => {
      expect(await list('categoryId=987654321')).toEqual([]);
    });

    it('takes up to 100 ids and refuses 101 with 400 naming id', async () => {
      const hundred = Array.from({ length: 100 }, (_, i) => `id=${i + 1}`).join('&');
      await api().get(`/pets?${hundred}`).set(KEY, reader).expect(200);
      const res = await api().get(`/pets?${hundred}&id=101`).set(KEY, reader);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect((res.body as { message: string }).message).toMatch(/\bid\b/);
    });

    it.each([
      ['status=lost', 'status'],
      ['status=', 'status'],
      ['status=available&status=AVAILABLE', 'status'],
      ['categoryId=abc', 'categoryId'],
      ['categoryId=0', 'categoryId'],
      ['categoryId=-2', 'categoryId'],
      ['categoryId=1.5', 'categoryId'],
      ['categoryId=1&categoryId=2', 'categoryId'],
      ['id=abc', 'id'],
      ['id=0', 'id'],
      ['id=1&id=-3', 'id'],
      ['id=2.5', 'id'],
    ])('refuses %s with 400 VALIDATION_FAILED naming %s', async (query, field) => {
      const res = await api().get(`/pets?${query}`).set(KEY, reader);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect((res.body as { message: string }).message).toMatch(new RegExp(`\\b${field}\\b`));
    });
  });

  describe('paging', () => {
    let paging: number;
    const created: Pet[] = [];

    beforeAll(async () => {
      paging = await newCategory('Paging');
      for (let i = 0; i < 45; i++) {
        created.push(await newPet({ name: `Page ${i}`, categoryId: paging, status: STATUSES[i % 3] }));
      }
    });

    it('returns 20 items by default, with a next link', async () => {
      const res = await api().get(`/pets?categoryId=${paging}`).set(KEY, reader).expect(200);
      expect(res.body).toEqual(created.slice(0, 20));
      expect(nextLink(res)).not.toBeNull();
    });

    it('returns everything in one page when it fits, without a next link', async () => {
      const res = await api().get(`/pets?categoryId=${paging}&limit=100`).set(KEY, reader).expect(200);
      expect(res.body).toEqual(created);
      expect(res.headers.link).toBeUndefined();
    });

    it('follows next links through every page: each item once, ascending, other parameters kept', async () => {
      const query = `limit=7&status=available&status=sold&categoryId=${paging}`;
      const pages = await followPages(t.http, reader, `/pets?${query}`);
      const expected = created.filter((p) => p.status !== 'pending');
      expect(pages.flatMap((page) => page.body as Pet[])).toEqual(expected);
      expect(pages).toHaveLength(Math.ceil(expected.length / 7));
      for (const page of pages.slice(0, -1)) {
        expect(page.body).toHaveLength(7);
        const link = nextLink(page)!;
        expect(page.headers.link).toMatch(/^<\/pets\?[^>]+>; rel="next"$/);
        const params = new URL(link, 'http://test').searchParams;
        expect(new URL(link, 'http://test').pathname).toBe('/pets');
        expect(params.get('limit')).toBe('7');
        expect(params.getAll('status').sort()).toEqual(['available', 'sold']);
        expect(params.get('categoryId')).toBe(String(paging));
        expect(params.getAll('cursor')).toHaveLength(1);
        const last = (page.body as Pet[]).at(-1)!;
        expect(params.get('cursor')).not.toBe(String(last.id));
      }
      expect(nextLink(pages.at(-1)!)).toBeNull();
    });

    it('ends without an empty page when the last page is exactly full', async () => {
      const pages = await followPages(t.http, reader, `/pets?categoryId=${paging}&limit=15`);
      expect(pages.map((page) => (page.body as Pet[]).length)).toEqual([15, 15, 15]);
      expect(pages.flatMap((page) => page.body as Pet[])).toEqual(created);
    });

    it('pages through the whole catalogue without duplicates or omissions', async () => {
      const rows: Array<{ id: string }> = await t.db.query('SELECT id FROM pets ORDER BY id');
      const pages = await followPages(t.http, reader, '/pets?limit=13');
      expect(pages.flatMap((page) => (page.body as Pet[]).map((pet) => pet.id))).toEqual(rows.map((r) => Number(r.id)));
    });

    it('any limit and status filter yields exactly the filtered pets, in order (property)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 50 }), fc.subarray([...STATUSES]), async (limit, statuses) => {
          const query = [`limit=${limit}`, `categoryId=${paging}`, ...statuses.map((s) => `status=${s}`)].join('&');
          const pages = await followPages(t.http, reader, `/pets?${query}`);
          const expected = created.filter((p) => statuses.length === 0 || statuses.includes(p.status));
          expect(pages.flatMap((page) => page.body as Pet[])).toEqual(expected);
          expect(pages.every((page) => (page.body as Pet[]).length <= limit)).toBe(true);
        }),
        { numRuns: 25 },
      );
    });

    it('returns a single item with limit=1', async () => {
      const res = await api().get(`/pets?categoryId=${paging}&limit=1`).set(KEY, reader).expect(200);
      expect(res.body).toEqual([created[0]]);
      expect(nextLink(res)).not.toBeNull();
    });

    it.each(['0', '101', 'abc', '-1', '1.5', '', '1e1', '10&limit=20'])(
      'refuses limit=%s with 400 naming limit',
      async (limit) => {
        const res = await api().get(`/pets?limit=${limit}`).set(KEY, reader);
        expectError(res, 400, 'VALIDATION_FAILED');
        expect((res.body as { message: string }).message).toMatch(/\blimit\b/);
      },
    );

    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    it.each([
      ['garbage', 'not-a-cursor!'],
      ['empty', ''],
      ['unknown version', b64('v2:5')],
      ['non-numeric id', b64('v1:abc')],
      ['negative id', b64('v1:-1')],
      ['huge id', b64('v1:99999999999999999999')],
      ['too long', 'A'.repeat(200)],
    ])('refuses a %s cursor with 400 naming cursor', async (_, cursor) => {
      const res = await api()
        .get(`/pets?cursor=${encodeURIComponent(cursor)}`)
        .set(KEY, reader);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect((res.body as { message: string }).message).toMatch(/\bcursor\b/);
    });
  });

  describe('PUT /pets/{petId}', () => {
    it('replaces every field: an omitted status returns to available', async () => {
      const pet = await newPet({ name: 'Old', categoryId: dogs, status: 'sold' });
      const res = await api()
        .put(`/pets/${pet.id}`)
        .set(KEY, writer)
        .send({ name: 'New', categoryId: cats })
        .expect(200);
      expect(res.body).toEqual({ id: pet.id, name: 'New', categoryId: cats, status: 'available' });
      expect(await readPet(pet.id)).toEqual(res.body);
    });

    it('sets a given status', async () => {
      const pet = await newPet({ name: 'Pending soon', categoryId: dogs });
      const res = await api()
        .put(`/pets/${pet.id}`)
        .set(KEY, writer)
        .send({ name: 'Pending now', categoryId: dogs, status: 'pending' })
        .expect(200);
      expect(res.body).toEqual({ id: pet.id, name: 'Pending now', categoryId: dogs, status: 'pending' });
    });

    it('refuses a partial body with 400 naming the missing field, changing nothing', async () => {
      const pet = await newPet({ name: 'Whole', categoryId: dogs, status: 'pending' });
      const res = await api().put(`/pets/${pet.id}`).set(KEY, writer).send({ name: 'Half' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect((res.body as { message: string }).message).toMatch(/\bcategoryId\b/);
      expect(await readPet(pet.id)).toEqual(pet);
    });

    it('refuses a body with an id or unknown field', async () => {
      const pet = await newPet({ name: 'Strict', categoryId: dogs });
      const res = await api().put(`/pets/${pet.id}`).set(KEY, writer).send({ id: pet.id, name: 'X', categoryId: dogs });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(await readPet(pet.id)).toEqual(pet);
    });

    it('answers 422 CATEGORY_NOT_FOUND for a missing category, changing nothing', async () => {
      const pet = await newPet({ name: 'Stay', categoryId: dogs });
      const res = await api().put(`/pets/${pet.id}`).set(KEY, writer).send({ name: 'Moved', categoryId: 987_654_321 });
      expectError(res, 422, 'CATEGORY_NOT_FOUND');
      expect(await readPet(pet.id)).toEqual(pet);
    });

    it('answers 404 PET_NOT_FOUND for a pet that does not exist', async () => {
      const res = await api().put('/pets/987654321').set(KEY, writer).send({ name: 'Nobody', categoryId: dogs });
      expectError(res, 404, 'PET_NOT_FOUND');
    });
  });

  describe('PATCH /pets/{petId}', () => {
    let pet: Pet;
    beforeEach(async () => {
      pet = await newPet({ name: 'Patchy', categoryId: dogs, status: 'available' });
    });

    it.each([
      [{ status: 'pending' }],
      [{ name: 'Renamed' }],
      [{ categoryId: 'cats' }],
      [{ name: 'Both', status: 'sold' }],
      [{}],
    ])('changes only the fields present (%j)', async (change) => {
      const body: Record<string, unknown> = { ...change };
      if (body.categoryId === 'cats') body.categoryId = cats;
      const res = await api().patch(`/pets/${pet.id}`).set(KEY, writer).send(body).expect(200);
      expect(res.body).toEqual({ ...pet, ...body });
      expect(await readPet(pet.id)).toEqual(res.body);
    });

    it('answers 422 CATEGORY_NOT_FOUND for a missing category, changing nothing', async () => {
      const res = await api().patch(`/pets/${pet.id}`).set(KEY, writer).send({ categoryId: 987_654_321 });
      expectError(res, 422, 'CATEGORY_NOT_FOUND');
      expect(await readPet(pet.id)).toEqual(pet);
    });

    it.each([
      [{ status: 'lost' }, 'status'],
      [{ name: '' }, 'name'],
      [{ name: 'y'.repeat(101) }, 'name'],
      [{ categoryId: '2' }, 'categoryId'],
      [{ colour: 'grey' }, 'colour'],
      [{ id: 1 }, 'id'],
    ])('refuses %j with 400 naming %s, changing nothing', async (body, field) => {
      const res = await api().patch(`/pets/${pet.id}`).set(KEY, writer).send(body);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect((res.body as { message: string }).message).toMatch(new RegExp(`\\b${field}\\b`));
      expect(await readPet(pet.id)).toEqual(pet);
    });

    it.each(['name', 'categoryId', 'status'])('refuses null for %s (a wrong type, not "no change")', async (field) => {
      const res = await api()
        .patch(`/pets/${pet.id}`)
        .set(KEY, writer)
        .send({ [field]: null });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect((res.body as { message: string }).message).toMatch(new RegExp(`\\b${field}\\b`));
      expect(await readPet(pet.id)).toEqual(pet);
    });

    it('answers 404 PET_NOT_FOUND for a pet that does not exist', async () => {
      expectError(await api().patch('/pets/987654321').set(KEY, writer).send({ name: 'x' }), 404, 'PET_NOT_FOUND');
    });

    it('is marked x-stability: beta in the OpenAPI document, unlike the stable PUT', async () => {
      const doc = await api().get('/openapi.json').expect(200);
      const path = (doc.body as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths[
        '/pets/{petId}'
      ];
      expect(path.patch['x-stability']).toBe('beta');
      expect(path.put['x-stability']).toBeUndefined();
    });
  });

  describe('DELETE /pets/{petId}', () => {
    it('answers 204 without a body, then the pet is gone everywhere', async () => {
      const pet = await newPet({ name: 'Leaving', categoryId: dogs });
      const res = await api().delete(`/pets/${pet.id}`).set(KEY, writer).expect(204);
      expect(res.text).toBe('');
      expectError(await api().get(`/pets/${pet.id}`).set(KEY, reader), 404, 'PET_NOT_FOUND');
      expect(await readPet(pet.id)).toBeUndefined();
      const body = { name: 'Back', categoryId: dogs };
      expectError(await api().put(`/pets/${pet.id}`).set(KEY, writer).send(body), 404, 'PET_NOT_FOUND');
      expectError(await api().patch(`/pets/${pet.id}`).set(KEY, writer).send(body), 404, 'PET_NOT_FOUND');
      expectError(await api().delete(`/pets/${pet.id}`).set(KEY, writer), 404, 'PET_NOT_FOUND');
    });
  });

  describe('PetsModule imported by another module', () => {
    it("gives it the app's PetsService, whose pets have their inventory line", async () => {
      const { pets } = t.app.get(PetsUser);
      expect(pets).toBe(t.app.get(PetsService));
      const pet = await pets.create({ name: 'Imported', categoryId: dogs });
      expect(await readPet(pet.id)).toEqual({ id: pet.id, name: 'Imported', categoryId: dogs, status: 'available' });
      const line = await api().get(`/store/inventory/${pet.id}`).set(KEY, reader);
      expect({ status: line.status, quantity: line.body.quantity }).toEqual({ status: 200, quantity: 0 });
    });
  });

  describe('path ids', () => {
    const body = () => ({ name: 'Any', categoryId: dogs });
    const call = (method: string, path: string) => {
      const key = method === 'get' ? reader : writer;
      switch (method) {
        case 'get':
          return api().get(path).set(KEY, key);
        case 'put':
          return api().put(path).set(KEY, key).send(body());
        case 'patch':
          return api().patch(path).set(KEY, key).send(body());
        default:
          return api().delete(path).set(KEY, key);
      }
    };
    const METHODS = ['get', 'put', 'patch', 'delete'];

    it.each(
      METHODS.flatMap((m) =>
        ['0', '-1', 'abc', '1.5', '99999999999999999999', '9223372036854775808', '%20'].map((id) => [m, id]),
      ),
    )('%s /pets/%s: not a positive int64 → 400 VALIDATION_FAILED', async (method, id) => {
      const res = await call(method, `/pets/${id}`);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect((res.body as { message: string }).message).toMatch(/\bpetId\b/);
    });

    it.each(METHODS.flatMap((m) => ['999999999', '9007199254740991'].map((id) => [m, id])))(
      '%s /pets/%s: well-formed but missing → 404 PET_NOT_FOUND',
      async (method, id) => {
        expectError(await call(method, `/pets/${id}`), 404, 'PET_NOT_FOUND');
      },
    );

    it.each(METHODS)(
      '%s /pets/9223372036854775807 (the largest int64) is well-formed: 404, not 400',
      async (method) => {
        expectError(await call(method, '/pets/9223372036854775807'), 404, 'PET_NOT_FOUND');
      },
    );

    it.each(METHODS)('%s refuses other spellings of an existing id (hex, exponent, sign, padding)', async (method) => {
      const pet = await newPet({ name: 'Spelled', categoryId: dogs });
      const spellings = [
        `0x${pet.id.toString(16)}`,
        `${pet.id}e0`,
        `+${pet.id}`,
        `0${pet.id}`,
        `${pet.id}.0`,
        `%20${pet.id}`,
        `${pet.id}%20`,
      ];
      const answers = [];
      for (const spelling of spellings) answers.push([spelling, (await call(method, `/pets/${spelling}`)).status]);
      expect(answers).toEqual(spellings.map((spelling) => [spelling, 400]));
      expect(await readPet(pet.id)).toEqual(pet);
    });
  });
});
