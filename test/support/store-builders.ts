import { SYSTEM } from '../../src/audit/index.js';
import type { Scope } from '@petstore/auth';
import request from 'supertest';
import { ApiKeysService } from '../../src/api-keys/application/api-keys.service.js';
import { KEY } from './http.js';
import type { TestApp } from './test-app.js';

/** A key issued for a store spec: its id (the orders' `ownerKeyId`) and its secret. */
export interface StoreKey {
  readonly id: number;
  readonly secret: string;
}

/** An enterprise key with roomy limits, so a rate limiter never interferes with store assertions. */
export async function issueStoreKey(t: TestApp, scopes: Scope[]): Promise<StoreKey> {
  const { key, secret } = await t.app.get(ApiKeysService).create(
    {
      name: `store ${scopes.join('+')}`,
      plan: 'enterprise',
      scopes,
      limits: { perMinute: 1_000_000, perDay: 10_000_000 },
    },
    SYSTEM,
  );
  return { id: key.id, secret };
}

/** Creates a category through the API (201) and returns its id. */
export async function createCategory(t: TestApp, adminKey: string, name: string): Promise<number> {
  return (await request(t.http).post('/categories').set(KEY, adminKey).send({ name }).expect(201)).body.id;
}

/** What most store specs start from: an admin key, a read-write key and one category. */
export interface StoreSetup {
  readonly admin: string;
  readonly writer: string;
  readonly categoryId: number;
}

/** Issues the admin key, then the read-write key (both {@link issueStoreKey}), then creates the category. */
export async function storeSetup(t: TestApp, categoryName: string): Promise<StoreSetup> {
  const admin = (await issueStoreKey(t, ['read', 'write', 'admin'])).secret;
  const writer = (await issueStoreKey(t, ['read', 'write'])).secret;
  return { admin, writer, categoryId: await createCategory(t, admin, categoryName) };
}

/** A pet to create: its name and category, and a status unless the default will do. */
export interface PetFields {
  readonly name: string;
  readonly categoryId: number;
  readonly status?: string;
}

/** Creates a pet through the API with `key` (201) and returns its id. */
export async function createPet(t: TestApp, key: string, { name, categoryId, status }: PetFields): Promise<number> {
  return (
    await request(t.http)
      .post('/pets')
      .set(KEY, key)
      .send({ name, categoryId, ...(status ? { status } : {}) })
      .expect(201)
  ).body.id;
}

/** PUT /store/inventory/{petId} with `{ quantity }`, unchecked: the caller asserts on the answer. */
export function putStock(t: TestApp, adminKey: string, petId: number | string, quantity: unknown): request.Test {
  return request(t.http).put(`/store/inventory/${petId}`).set(KEY, adminKey).send({ quantity });
}

/**
 * A new pet (created with the admin key) with `stock` units, set by PUT
 * /store/inventory (200) unless `stock` is 0; its status is what the store rules
 * leave. Returns its id.
 */
export async function stockedPet(t: TestApp, adminKey: string, stock: number, pet: PetFields): Promise<number> {
  const petId = await createPet(t, adminKey, pet);
  if (stock > 0) await putStock(t, adminKey, petId, stock).expect(200);
  return petId;
}
