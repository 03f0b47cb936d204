import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestSpanAttributes } from './request-span.js';

/** A request as Express and the service leave it (the route matched, the key found, the id assigned). */
const request = (fields: Record<string, unknown>) => ({ method: 'GET', ...fields }) as unknown as IncomingMessage;
const response = (statusCode: number, errorCode?: string) =>
  ({ statusCode, locals: errorCode ? { errorCode } : {} }) as unknown as ServerResponse;

describe('requestSpanAttributes', () => {
  it('names the route template, the key id (never the key) and the request id', () => {
    const req = request({ route: { path: '/pets/:petId' }, apiKey: { id: 7, keyHash: 'h' }, id: 'req-1' });
    expect(requestSpanAttributes(req, response(200))).toEqual({
      name: 'GET /pets/:petId',
      attributes: { 'http.route': '/pets/:petId', 'petstore.api_key.id': 7, 'petstore.request_id': 'req-1' },
    });
  });

  it('gives error.type the Error code on a 5xx only', () => {
    const req = request({ route: { path: '/store/orders' }, id: 'req-2' });
    expect(requestSpanAttributes(req, response(503, 'SERVICE_UNAVAILABLE')).attributes['error.type']).toBe(
      'SERVICE_UNAVAILABLE',
    );
    expect(requestSpanAttributes(req, response(409, 'INSUFFICIENT_STOCK')).attributes).not.toHaveProperty('error.type');
  });

  it('leaves the name alone for a path no route serves', () => {
    const req = request({
      path: '/nowhere',
      url: '/nowhere',
      originalUrl: '/nowhere',
      app: { locals: {} },
      id: 'req-3',
    });
    expect(requestSpanAttributes(req, response(404, 'ROUTE_NOT_FOUND'))).toEqual({
      name: undefined,
      attributes: { 'petstore.request_id': 'req-3' },
    });
  });
});
