import {
  type ArgumentsHost,
  BadRequestException,
  ForbiddenException,
  HttpException,
  InternalServerErrorException,
  Logger,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnauthorizedException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { AllExceptionsFilter } from './all-exceptions.filter.js';
import { ApiError, ValidationFailedError } from './api-error.js';
import { DomainError, type ErrorKind } from './domain-error.js';
import { OverloadedError } from './overloaded-error.js';
import { RouteCatalog } from './route-catalog.js';

/** A response that records what the filter did with it. */
class FakeResponse {
  headersSent = false;
  statusCode = 200;
  body: unknown = undefined;
  ended = false;
  readonly headers: Record<string, string> = { 'X-Request-Id': 'req-123' };
  readonly locals: Record<string, unknown> = {};

  getHeader(name: string): string | undefined {
    return this.headers[name];
  }
  setHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }
  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  json(body: unknown): this {
    this.body = body;
    this.ended = true;
    return this;
  }
  end(): this {
    this.ended = true;
    return this;
  }
}

interface FakeRequest {
  method: string;
  headers: Record<string, string>;
  path: string;
  originalUrl: string;
  log?: { error(fields: object, message: string): void };
}

function request(method: string, path: string): FakeRequest {
  return { method, path, originalUrl: path, headers: {} };
}

class KindError extends DomainError {
  readonly code: string;
  constructor(
    readonly kind: ErrorKind,
    message = `a ${kind} error`,
  ) {
    super(message);
    this.code = `TEST_${kind.toUpperCase()}`;
  }
}

describe('AllExceptionsFilter', () => {
  const filter = new AllExceptionsFilter();
  let logged: string[] = [];

  beforeAll(() => {
    // Capture instead of printing: what the operator would see in the log.
    Logger.overrideLogger({
      log: () => undefined,
      warn: () => undefined,
      error: (message: unknown) => void logged.push(String(message)),
    });
  });

  beforeEach(() => {
    logged = [];
  });

  function render(
    exception: unknown,
    req: FakeRequest = request('GET', '/pets'),
    by: AllExceptionsFilter = filter,
  ): FakeResponse {
    const res = new FakeResponse();
    const host = {
      switchToHttp: () => ({ getRequest: () => req, getResponse: () => res, getNext: () => () => undefined }),
    } as unknown as ArgumentsHost;
    by.catch(exception, host);
    return res;
  }

  function expectBody(res: FakeResponse, status: number, code: string, message?: string | RegExp): void {
    expect(res.statusCode).toBe(status);
    expect(Object.keys(res.body as object).sort()).toEqual(['code', 'message', 'status']);
    expect(res.body).toMatchObject({ status, code });
    const text = (res.body as { message: unknown }).message;
    expect(typeof text).toBe('string');
    if (message !== undefined) expect(text).toMatch(message);
  }

  describe('domain errors', () => {
    it.each<[ErrorKind, number]>([
      ['validation', 400],
      ['not_found', 404],
      ['conflict', 409],
      ['gone', 410],
      ['unprocessable', 422],
      ['unavailable', 503],
    ])('maps kind %s to %i with its code and message', (kind, status) => {
      const res = render(new KindError(kind, 'Pet 42 does not exist'));
      expectBody(res, status, `TEST_${kind.toUpperCase()}`, 'Pet 42 does not exist');
      expect(res.body).toStrictEqual({ code: `TEST_${kind.toUpperCase()}`, message: 'Pet 42 does not exist', status });
    });

    it('does not log expected 4xx failures', () => {
      render(new KindError('not_found'));
      expect(logged).toEqual([]);
    });
  });

  describe('ApiError', () => {
    it('renders status, code, message and sends its headers', () => {
      const res = render(new ApiError(429, 'API_KEY_BANNED', 'Banned for 900 s', { 'Retry-After': '900' }));
      expect(res.body).toStrictEqual({ code: 'API_KEY_BANNED', message: 'Banned for 900 s', status: 429 });
      expect(res.headers['Retry-After']).toBe('900');
    });

    it('renders ValidationFailedError naming every problem', () => {
      const res = render(new ValidationFailedError(['name must be a string', 'color is not an allowed field']));
      expectBody(
        res,
        400,
        'VALIDATION_FAILED',
        'Invalid request: name must be a string; color is not an allowed field',
      );
    });

    it.each([
      [401, 'UNAUTHENTICATED'],
      [401, 'INVALID_API_KEY'],
      [403, 'INSUFFICIENT_SCOPE'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
    ])('passes %i %s through', (status, code) => {
      expectBody(render(new ApiError(status, code, 'nope')), status, code, 'nope');
    });
  });

  describe('Nest HttpExceptions', () => {
    it('renders a 400 caused by a SyntaxError as MALFORMED_JSON without the parser detail', () => {
      const cause = new SyntaxError('Unexpected token } in JSON at position 9');
      const res = render(new BadRequestException(cause.message, { cause }));
      expectBody(res, 400, 'MALFORMED_JSON');
      expect(JSON.stringify(res.body)).not.toContain('position 9');
    });

    it('renders any other 400 as VALIDATION_FAILED', () => {
      expectBody(render(new BadRequestException('limit must not be greater than 100')), 400, 'VALIDATION_FAILED');
    });

    it.each([
      [413, 'PAYLOAD_TOO_LARGE', new PayloadTooLargeException('request entity too large')],
      [415, 'UNSUPPORTED_MEDIA_TYPE', new UnsupportedMediaTypeException('x')],
      // What @nestjs/throttler's ThrottlerException is (it cannot be imported under Jest: a CJS package requiring ESM Nest).
      [429, 'RATE_LIMIT_EXCEEDED', new HttpException('ThrottlerException: Too Many Requests', 429)],
      [401, 'UNAUTHENTICATED', new UnauthorizedException()],
      [403, 'INSUFFICIENT_SCOPE', new ForbiddenException()],
    ])('renders a %i HttpException as %s', (status, code, exception) => {
      expectBody(render(exception), status, code);
    });

    it('gives 413 and 415 a message of their own', () => {
      expectBody(render(new PayloadTooLargeException()), 413, 'PAYLOAD_TOO_LARGE', /16 KiB/);
      expectBody(render(new UnsupportedMediaTypeException()), 415, 'UNSUPPORTED_MEDIA_TYPE', /application\/json/);
    });

    it('renders a 5xx HttpException as 500 INTERNAL_ERROR without its message, and logs it', () => {
      const res = render(new InternalServerErrorException('password=hunter2 in pg_hba.conf'));
      expect(res.body).toStrictEqual({ code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', status: 500 });
      expect(logged).toHaveLength(1);
    });

    it('renders a 503 HttpException as 503 SERVICE_UNAVAILABLE, not as a 500 bug', () => {
      expectBody(render(new ServiceUnavailableException('db down')), 503, 'SERVICE_UNAVAILABLE');
    });
  });

  describe('errors from Express and body-parser, as Nest hands them over', () => {
    const adapter = new ExpressAdapter();

    /** The shape body-parser gives its errors (http-errors). */
    function bodyParserError<E extends Error>(error: E, status: number, type: string): E {
      return Object.assign(error, { status, statusCode: status, expose: true, type });
    }

    it('malformed JSON → 400 MALFORMED_JSON', () => {
      const error = bodyParserError(new SyntaxError('Unexpected end of JSON input'), 400, 'entity.parse.failed');
      expectBody(render(adapter.mapException(error)), 400, 'MALFORMED_JSON');
    });

    it('oversized body → 413 PAYLOAD_TOO_LARGE', () => {
      const error = bodyParserError(new Error('request entity too large'), 413, 'entity.too.large');
      expectBody(render(adapter.mapException(error)), 413, 'PAYLOAD_TOO_LARGE', /16 KiB/);
    });

    it('unsupported charset → 415 UNSUPPORTED_MEDIA_TYPE', () => {
      const error = bodyParserError(new Error('unsupported charset "UTF-7"'), 415, 'charset.unsupported');
      expectBody(render(adapter.mapException(error)), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('unmatched routes', () => {
    const routed = new AllExceptionsFilter(
      new RouteCatalog([
        { method: 'GET', path: '/pets' },
        { method: 'POST', path: '/pets' },
        { method: 'PUT', path: '/pets/:petId' },
        { method: 'ALL', path: '/pets/:petId' },
        { method: 'GET', path: '/categories' },
      ]),
    );

    it('answers 404 ROUTE_NOT_FOUND when no route matches the path', () => {
      const res = render(new NotFoundException('Cannot GET /nope'), request('GET', '/nope'), routed);
      expectBody(res, 404, 'ROUTE_NOT_FOUND', 'No route for GET /nope');
      expect(res.headers.Allow).toBeUndefined();
    });

    it('answers 404 without a route catalog', () => {
      expectBody(render(new NotFoundException(), request('DELETE', '/pets')), 404, 'ROUTE_NOT_FOUND');
    });

    it('answers 405 METHOD_NOT_ALLOWED with Allow when the path exists for other methods', () => {
      const res = render(new NotFoundException('Cannot DELETE /pets'), request('DELETE', '/pets'), routed);
      expectBody(res, 405, 'METHOD_NOT_ALLOWED', /GET, HEAD, POST/);
      expect(res.headers.Allow).toBe('GET, HEAD, POST');
    });

    it('does not offer HEAD without GET, nor ALL', () => {
      const res = render(new NotFoundException(), request('GET', '/pets/1'), routed);
      expectBody(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.Allow).toBe('PUT');
    });
  });

  describe('dependency failures', () => {
    const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

    it.each([
      ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
      ['SQLSTATE 08006 (connection failure)', withCode('connection failure', '08006')],
      ['SQLSTATE 57P01 (admin shutdown)', withCode('terminating connection due to administrator command', '57P01')],
      [
        'a TypeORM error wrapping the driver error',
        Object.assign(new Error('Query failed'), { driverError: withCode('terminating', '57P01') }),
      ],
      ['an error whose cause is a network error', new Error('lookup failed', { cause: withCode('x', 'ETIMEDOUT') })],
    ])('renders %s as 503 SERVICE_UNAVAILABLE without internals', (_name, error) => {
      const res = render(error);
      expect(res.body).toStrictEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'A required dependency is unavailable; retry shortly',
        status: 503,
      });
      expect(res.headers['Retry-After']).toBe('5');
      expect(logged).toHaveLength(1);
    });

    it('renders an overload as 503 OVERLOADED with its Retry-After, apart from an outage', () => {
      const res = render(new OverloadedError('12 requests already wait'));
      expect(res.body).toStrictEqual({
        code: 'OVERLOADED',
        message: 'The service is overloaded (12 requests already wait); retry after 1 s',
        status: 503,
      });
      expect(res.headers['Retry-After']).toBe('1');
    });

    it("renders pg-pool's wait for a free connection running out as 503 OVERLOADED, not as an outage", () => {
      const res = render(new Error('timeout exceeded when trying to connect'));
      expect(res.body).toMatchObject({ code: 'OVERLOADED', status: 503 });
      expect(res.headers['Retry-After']).toBe('1');
    });
  });

  describe('anything else', () => {
    it.each([
      ['an Error', new Error('relation "api_keys" does not exist at SELECT * FROM api_keys')],
      ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
      ['a query error with a non-availability SQLSTATE', Object.assign(new Error('duplicate key'), { code: '23505' })],
      ['a thrown string', 'boom'],
      ['undefined', undefined],
      ['null', null],
    ])('renders %s as 500 INTERNAL_ERROR without leaking the message', (_name, exception) => {
      const res = render(exception);
      expect(res.body).toStrictEqual({ code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', status: 500 });
    });

    it('logs the failure with the request id, for the operator only', () => {
      render(new Error('secret detail'), request('POST', '/pets'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain('POST /pets -> 500 INTERNAL_ERROR');
      expect(logged[0]).toContain('req-123');
      expect(logged[0]).toContain('secret detail');
    });

    it('logs through the request logger (bound to the request id) when the request has one', () => {
      const entries: Array<{ fields: Record<string, unknown>; message: string }> = [];
      const req: FakeRequest = {
        ...request('GET', '/pets?limit=1'),
        log: { error: (fields, message) => void entries.push({ fields: fields as Record<string, unknown>, message }) },
      };
      const error = new Error('secret detail');
      const res = render(error, req);
      expect(res.body).toStrictEqual({ code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', status: 500 });
      expect(logged).toEqual([]);
      expect(entries).toEqual([
        {
          fields: { err: error, code: 'INTERNAL_ERROR', status: 500 },
          message: 'GET /pets?limit=1 -> 500 INTERNAL_ERROR',
        },
      ]);
    });

    it('leaves the code it answered with for the request log and metrics', () => {
      expect(render(new ApiError(429, 'API_KEY_BANNED', 'x')).locals.errorCode).toBe('API_KEY_BANNED');
      expect(render(new Error('x')).locals.errorCode).toBe('INTERNAL_ERROR');
    });

    it('only ends a response whose headers were already sent', () => {
      const res = new FakeResponse();
      res.headersSent = true;
      const host = {
        switchToHttp: () => ({ getRequest: () => request('GET', '/pets'), getResponse: () => res }),
      } as unknown as ArgumentsHost;
      filter.catch(new Error('mid-stream'), host);
      expect(res.ended).toBe(true);
      expect(res.body).toBeUndefined();
      expect(res.statusCode).toBe(200);
    });
  });

  it('always answers with exactly code, message and status whatever it is given', () => {
    const samples: unknown[] = [
      new KindError('conflict'),
      new ApiError(401, 'UNAUTHENTICATED', 'x', { 'WWW-Authenticate': 'ApiKey' }),
      new HttpException({ message: ['a', 'b'], error: 'Bad Request', extra: true }, 400),
      new NotFoundException({ detail: 'object body' }),
      new Error('x'),
      42,
      { code: 'ECONNREFUSED' },
    ];
    for (const sample of samples) {
      const res = render(sample);
      expect(Object.keys(res.body as object).sort()).toEqual(['code', 'message', 'status']);
      expect((res.body as { status: number }).status).toBe(res.statusCode);
    }
  });
});
