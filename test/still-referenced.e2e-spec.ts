import request from 'supertest';
import { KEY } from './support/http.js';
import { createCategory, createPet } from './support/store-builders.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Another module's table referencing pets or categories (as a team's module adds):
 * a deletion its foreign key refuses answers 409 RESOURCE_STILL_REFERENCED and
 * deletes nothing, whatever the foreign key's action (NO ACTION: 23503, RESTRICT: 23001).
 */
describe('deleting a resource another module still references (e2e)', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.db.query(`DROP TABLE IF EXISTS test_pet_holds, test_category_badges`);
    await t.db.query(`CREATE TABLE test_pet_holds (
      id serial PRIMARY KEY,
      pet_id bigint NOT NULL CONSTRAINT "FK_test_pet_holds_pet" REFERENCES pets(id))`);
    await t.db.query(`CREATE TABLE test_category_badges (
      id serial PRIMARY KEY,
      category_id bigint NOT NULL
        CONSTRAINT "FK_test_category_badges_category" REFERENCES categories(id) ON DELETE RESTRICT)`);
  });
  afterAll(async () => {
    await t.db.query(`DROP TABLE IF EXISTS test_pet_holds, test_category_badges`);
    await t.close();
  });
  beforeEach(async () => {
    await t.reset();
    admin = await t.key(['read', 'write', 'admin'], 'enterprise');
  });

  it('answers 409 for a pet held by another table, and keeps the pet and its stock', async () => {
    const categoryId = await createCategory(t, admin, 'Dogs');
    const petId = await createPet(t, admin, { name: 'Rex', categoryId });
    await t.db.query(`INSERT INTO test_pet_holds (pet_id) VALUES ($1)`, [petId]);

    const res = await request(t.http).delete(`/pets/${petId}`).set(KEY, admin).expect(409);

    expect(res.body).toEqual({
      code: 'RESOURCE_STILL_REFERENCED',
      message: 'The resource is still referenced by other records; remove or change those first',
      status: 409,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/test_pet_holds|FK_|violates/);
    await request(t.http)
      .get(`/pets?id=${petId}`)
      .set(KEY, admin)
      .expect(200, [{ id: petId, name: 'Rex', categoryId, status: 'available' }]);
    await request(t.http).get(`/store/inventory/${petId}`).set(KEY, admin).expect(200);
  });

  it('deletes the pet once nothing references it', async () => {
    const categoryId = await createCategory(t, admin, 'Cats');
    const petId = await createPet(t, admin, { name: 'Tom', categoryId });
    await t.db.query(`INSERT INTO test_pet_holds (pet_id) VALUES ($1)`, [petId]);
    await request(t.http).delete(`/pets/${petId}`).set(KEY, admin).expect(409);
    await t.db.query(`DELETE FROM test_pet_holds WHERE pet_id = $1`, [petId]);
    await request(t.http).delete(`/pets/${petId}`).set(KEY, admin).expect(204);
  });

  it('answers 409 for a category behind an ON DELETE RESTRICT key, and keeps it', async () => {
    const categoryId = await createCategory(t, admin, 'Birds');
    await t.db.query(`INSERT INTO test_category_badges (category_id) VALUES ($1)`, [categoryId]);

    const res = await request(t.http).delete(`/categories/${categoryId}`).set(KEY, admin).expect(409);

    expect(res.body.code).toBe('RESOURCE_STILL_REFERENCED');
    await request(t.http).get(`/categories/${categoryId}`).set(KEY, admin).expect(200);
  });

  it("keeps the resource's own code where its adapter knows the referencing table", async () => {
    const categoryId = await createCategory(t, admin, 'Fish');
    await createPet(t, admin, { name: 'Nemo', categoryId });
    const res = await request(t.http).delete(`/categories/${categoryId}`).set(KEY, admin).expect(409);
    expect(res.body.code).toBe('CATEGORY_IN_USE');
  });
});
