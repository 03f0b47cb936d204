#!/usr/bin/env node
// Micro-benchmark of the global validation pipe, in one process, against the built
// files (npm run build first): µs per transform of the full path (super.transform:
// plainToInstance + validate), of the DTO's compiled fast path alone, and of the
// pipe as the service runs it (fast path, else full path).
//
//   npm run build && node test/bench/validation-micro.mjs
//
// Environment: PETSTORE_DIST (default dist), MICRO_ITERATIONS per round (20000),
// MICRO_ROUNDS (7; the median round is reported).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ValidationPipe } from '@nestjs/common';

const DIST = resolve(process.env.PETSTORE_DIST ?? 'dist');
const ITERATIONS = Number(process.env.MICRO_ITERATIONS ?? 20_000);
const ROUNDS = Number(process.env.MICRO_ROUNDS ?? 7);

const load = (path) => import(pathToFileURL(`${DIST}/src/${path}`).href);
const { createValidationPipe } = await load('shared/http/validation.pipe.js');
const { compileFastValidation } = await load('shared/http/fast-validation.js');
const { ListPetsQuery } = await load('pets/http/dto/list-pets.query.js');
const { NewPetDto } = await load('pets/http/dto/new-pet.dto.js');

/** A query as node:querystring gives it: a null-prototype object. */
const query = (fields) => Object.assign(Object.create(null), fields);

const CASES = [
  { name: 'ListPetsQuery {id: "500000"}', type: 'query', metatype: ListPetsQuery, value: query({ id: '500000' }) },
  { name: 'ListPetsQuery {}', type: 'query', metatype: ListPetsQuery, value: query({}) },
  {
    name: 'NewPet body',
    type: 'body',
    metatype: NewPetDto,
    value: { name: 'Rex', categoryId: 1, status: 'available' },
  },
];

const pipe = createValidationPipe();

/** µs per call of `run` (awaited when it returns a promise), the median of the rounds after a warm-up. */
async function measure(run) {
  const loop = run() instanceof Promise ? awaitedLoop : syncLoop;
  await loop(run);
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    await loop(run);
    rounds.push(Number(process.hrtime.bigint() - start) / 1000 / ITERATIONS);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

async function awaitedLoop(run) {
  for (let i = 0; i < ITERATIONS; i++) await run();
}

/** Results of synchronous runs that were not instances: read at the end, so no run can be optimised away. */
let missed = 0;
function syncLoop(run) {
  for (let i = 0; i < ITERATIONS; i++) if (run() === undefined) missed++;
}

const rows = [];
for (const { name, type, metatype, value } of CASES) {
  const metadata = { type, metatype };
  const fast = compileFastValidation(metatype);
  if (!fast || fast(value) === undefined) throw new Error(`${name} does not take the fast path`);
  const full = await measure(() => ValidationPipe.prototype.transform.call(pipe, value, metadata));
  const fastOnly = await measure(() => fast(value));
  const viaPipe = await measure(() => pipe.transform(value, metadata));
  rows.push({ name, full, fastOnly, viaPipe });
}
if (missed > 0) throw new Error(`${missed} fast-path runs returned no instance`);

const micros = (value) => value.toFixed(2).padStart(8);
console.log(`${ITERATIONS} transforms × ${ROUNDS} rounds (median), µs per transform`);
console.log(`${'input'.padEnd(30)} ${'full path'.padStart(10)} ${'fast path'.padStart(10)} ${'pipe now'.padStart(10)}`);
for (const { name, full, fastOnly, viaPipe } of rows) {
  console.log(`${name.padEnd(30)} ${micros(full)}   ${micros(fastOnly)}   ${micros(viaPipe)}`);
}
