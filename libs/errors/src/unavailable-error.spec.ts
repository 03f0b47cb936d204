import fc from 'fast-check';
import { isDependencyUnavailable } from './unavailable-error.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDependencyUnavailable', () => {
  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])(
    'recognises the network error %s',
    (code) => {
      expect(isDependencyUnavailable(withCode(code))).toBe(true);
    },
  );

  it.each([
    ['08000', 'connection exception'],
    ['08003', 'connection does not exist'],
    ['08006', 'connection failure'],
    ['08001', 'unable to establish connection'],
    ['57P01', 'admin shutdown'],
    ['57P02', 'crash shutdown'],
    ['57P03', 'cannot connect now'],
    ['53300', 'too many connections'],
    ['53400', 'configuration limit exceeded'],
    ['57014', 'query canceled (statement_timeout)'],
  ])('recognises SQLSTATE %s (%s)', (code) => {
    expect(isDependencyUnavailable(withCode(code))).toBe(true);
  });

  it.each([
    ['23505', 'unique violation'],
    ['23503', 'foreign key violation'],
    ['42P01', 'undefined table'],
    ['22P02', 'invalid text representation'],
    ['40001', 'serialization failure'],
    ['53100', 'disk full'],
    ['55000', 'object not in prerequisite state, as an ERROR (e.g. currval before nextval)'],
  ])('does not treat SQLSTATE %s (%s) as unavailability', (code) => {
    expect(isDependencyUnavailable(withCode(code))).toBe(false);
  });

  it.each([
    'Connection terminated',
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'Client has encountered a connection error and is not queryable',
    'Client was closed and is not queryable',
    'timeout expired',
    'Query read timeout',
  ])('recognises the driver message %j', (message) => {
    expect(isDependencyUnavailable(new Error(message))).toBe(true);
  });

  it('recognises a FATAL error: the server refused or ended the session', () => {
    const refused = Object.assign(new Error('database "pets" is not currently accepting connections'), {
      code: '55000',
      severity: 'FATAL',
    });
    expect(isDependencyUnavailable(refused)).toBe(true);
    expect(isDependencyUnavailable(Object.assign(new Error('x'), { code: '55000', severity: 'ERROR' }))).toBe(false);
  });

  it("recognises TypeORM's released query runner: the transaction's connection died under it", async () => {
    const { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } = await import('typeorm');
    expect(isDependencyUnavailable(new QueryRunnerAlreadyReleasedError())).toBe(true);
    expect(isDependencyUnavailable(new QueryRunnerProviderAlreadyReleasedError())).toBe(true);
  });

  it('looks through TypeORM driverError', () => {
    const queryFailed = Object.assign(new Error('QueryFailedError'), { driverError: withCode('57P01') });
    expect(isDependencyUnavailable(queryFailed)).toBe(true);
  });

  it('looks through a chain of causes', () => {
    const nested = new Error('outer', { cause: new Error('middle', { cause: withCode('ECONNREFUSED') }) });
    expect(isDependencyUnavailable(nested)).toBe(true);
  });

  it('stops after a few levels, so a cyclic chain cannot hang it', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.assign(a, { cause: b });
    expect(isDependencyUnavailable(a)).toBe(false);
  });

  it('recognises an error-like object from another realm (not `instanceof Error` here)', async () => {
    const { runInNewContext } = await import('node:vm');
    const foreign: unknown = runInNewContext(
      "Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })",
    );
    expect(foreign instanceof Error).toBe(false);
    expect(isDependencyUnavailable(foreign)).toBe(true);
  });

  it.each([
    ['an ordinary Error', new Error('Cannot read properties of undefined')],
    ['a TypeError', new TypeError('x is not a function')],
    ['a string', 'ECONNREFUSED'],
    ['null', null],
    ['undefined', undefined],
    ['a numeric code', Object.assign(new Error('x'), { code: 8006 })],
  ])('is false for %s', (_name, value) => {
    expect(isDependencyUnavailable(value)).toBe(false);
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(typeof isDependencyUnavailable(value)).toBe('boolean');
      }),
    );
  });
});
