// Before anything is measured, every server must answer the same requests as the
// service: status code, JSON body, and the headers that carry the contract
// (deprecation, paging and rate-limit headers). A reference that answered less, or
// differently, would make the comparison meaningless, so any mismatch aborts.
/* global fetch */
import { isDeepStrictEqual } from 'node:util';
import { encodeCursor } from '../references/work.mjs';

/** The requests checked: every measured one, plus the error answers of the same routes. */
export function checkRequests(data) {
  const order = (petId) => ({ method: 'POST', body: JSON.stringify({ petId, quantity: 1 }), order: true });
  return [
    { name: 'GET /pets?id=N', path: `/pets?id=${data.petId}`, status: 200 },
    { name: 'GET /pets?id=N (no such pet)', path: `/pets?id=${data.missingPetId}`, status: 200 },
    { name: 'GET /pets/{id}', path: `/pets/${data.petId}`, status: 200 },
    { name: 'GET /pets/{id} (no such pet)', path: `/pets/${data.missingPetId}`, status: 404 },
    { name: 'GET /pets (first page)', path: '/pets', status: 200 },
    {
      name: 'deep page of 10k',
      path: `/pets?categoryId=${data.categoryId}&cursor=${encodeCursor(data.deep10kAfter)}`,
      status: 200,
    },
    { name: 'deep page of 1M', path: `/pets?cursor=${encodeCursor(data.deep1mAfter)}`, status: 200 },
    {
      name: 'last page of 10k (no next link)',
      path: `/pets?categoryId=${data.categoryId}&cursor=${encodeCursor(data.last10kAfter)}`,
      status: 200,
    },
    { name: 'GET /pets with a bad cursor', path: '/pets?cursor=nope!', status: 400, codeOnly: true },
    { name: 'POST /store/orders', path: '/store/orders', status: 201, ...order(data.hotPetId) },
    { name: 'POST /store/orders on a sold pet', path: '/store/orders', status: 409, ...order(data.soldPetId) },
  ];
}

async function ask(server, request, key) {
  const headers = { 'X-API-Key': key };
  if (request.body) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${server.base}${request.path}`, {
    method: request.method ?? 'GET',
    headers,
    body: request.body,
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}

const EXACT_HEADERS = ['content-type', 'deprecation', 'sunset', 'link', 'x-ratelimit-limit'];
const NUMERIC_HEADERS = ['x-ratelimit-remaining', 'x-ratelimit-reset'];

/** How `actual` differs from `expected` (the service's answer), as readable lines. */
function differences(request, expected, actual) {
  const found = [];
  if (actual.status !== expected.status) found.push(`status ${actual.status}, the service's ${expected.status}`);
  for (const name of EXACT_HEADERS) {
    const [a, e] = [actual.headers.get(name), expected.headers.get(name)];
    if (a !== e) found.push(`${name}: ${a ?? '(none)'}, the service's ${e ?? '(none)'}`);
  }
  for (const name of NUMERIC_HEADERS) {
    if (!/^\d+$/.test(actual.headers.get(name) ?? '')) found.push(`${name} missing or not a number`);
  }
  if (request.codeOnly) {
    if (actual.body?.code !== expected.body?.code)
      found.push(`code ${actual.body?.code}, the service's ${expected.body?.code}`);
  } else if (request.order && expected.status === 201) {
    // Order ids differ between servers; everything else must not.
    const withoutId = ({ id, ...rest }) => ({ id: typeof id, ...rest });
    if (!isDeepStrictEqual(withoutId(actual.body), withoutId(expected.body))) {
      found.push(`body ${JSON.stringify(actual.body)}, the service's ${JSON.stringify(expected.body)}`);
    }
    const location = /^\/store\/orders\/\d+$/;
    if (!location.test(actual.headers.get('location') ?? '')) found.push(`location ${actual.headers.get('location')}`);
  } else if (!isDeepStrictEqual(actual.body, expected.body)) {
    const show = (body) => JSON.stringify(body).slice(0, 300);
    found.push(`body ${show(actual.body)}, the service's ${show(expected.body)}`);
  }
  return found;
}

/**
 * Asks the service and each of `others` every check request; throws naming each
 * difference. The service's own answers must be successes where a success is due.
 */
export async function checkAnswers(service, others, requests, key) {
  const problems = [];
  for (const request of requests) {
    const expected = await ask(service, request, key);
    if (expected.status !== request.status) {
      problems.push(`the service, ${request.name}: status ${expected.status}, expected ${request.status}`);
    }
    for (const server of others) {
      const actual = await ask(server, request, key);
      for (const difference of differences(request, expected, actual)) {
        problems.push(`${server.name}, ${request.name}: ${difference}`);
      }
    }
  }
  if (problems.length) throw new Error(`The servers do not answer alike:\n  ${problems.join('\n  ')}`);
  return requests.length;
}
