import { jest } from '@jest/globals';
import fc from 'fast-check';
import { LineBatch } from './line-batch.js';

/** A sink that keeps every chunk it was given (as SonicBoom does until written) and its sync flushes. */
class KeepingSink {
  readonly chunks: Buffer[] = [];
  syncFlushes = 0;
  write(chunk: Buffer): void {
    this.chunks.push(chunk);
  }
  flushSync(): void {
    this.syncFlushes += 1;
  }
  /** What was handed over, read now: a chunk overwritten after it was handed over shows here. */
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * A sink that writes as SonicBoom does, later: it keeps each chunk until told to
 * complete its writes, then checks the chunk still holds what it was handed (the
 * batch reused no buffer too early), keeps those bytes and tells the batch.
 */
class LaterSink {
  readonly output: Buffer[] = [];
  private readonly queued: { chunk: Buffer; handed: Buffer }[] = [];
  batch: LineBatch | undefined;
  write(chunk: Buffer): void {
    this.queued.push({ chunk, handed: Buffer.from(chunk) });
  }
  flushSync(): void {
    this.complete(this.queued.length);
  }
  complete(count: number): void {
    for (const { chunk, handed } of this.queued.splice(0, count)) {
      expect(chunk.equals(handed)).toBe(true);
      this.output.push(handed);
      this.batch?.written(chunk.length);
    }
  }
}

type Step =
  { kind: 'line'; text: string } | { kind: 'parts'; head: string; middle: string; tail: string } | { kind: 'flush' };

describe('LineBatch', () => {
  afterEach(() => jest.useRealTimers());

  it('hands over every line once, in order and byte for byte, whatever the lines, parts and flushes', () => {
    const text = fc.string({ unit: 'binary', maxLength: 300 });
    const step: fc.Arbitrary<Step> = fc.oneof(
      text.map((line) => ({ kind: 'line' as const, text: line })),
      fc.tuple(text, text, text).map(([head, middle, tail]) => ({ kind: 'parts' as const, head, middle, tail })),
      fc.constant({ kind: 'flush' as const }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.integer({ min: 1, max: 512 }), (steps, batchBytes) => {
        const sink = new KeepingSink();
        const batch = new LineBatch(sink, batchBytes, 60_000);
        // Each string encoded on its own (two lone surrogates of two strings never make one character).
        const expected: Buffer[] = [];
        for (const each of steps) {
          if (each.kind === 'line') batch.write(each.text);
          else if (each.kind === 'parts') batch.writeParts(each.head, Buffer.from(each.middle), each.tail);
          else batch.flush();
          if (each.kind === 'line') expected.push(Buffer.from(each.text));
          if (each.kind === 'parts')
            expected.push(...[each.head, each.middle, each.tail].map((part) => Buffer.from(part)));
        }
        batch.flushSync();
        // Encoded as Buffer.from encodes (lone surrogates included), nothing lost, nothing written over.
        expect(Buffer.concat(sink.chunks).equals(Buffer.concat(expected))).toBe(true);
        expect(sink.chunks.every((chunk) => chunk.length > 0)).toBe(true);
      }),
    );
  });

  it('reuses a buffer only once the sink has written what it held', () => {
    const text = fc.string({ unit: 'binary', maxLength: 200 });
    const step = fc.oneof(
      text.map((line) => ({ kind: 'line' as const, text: line })),
      fc.tuple(text, text).map(([head, tail]) => ({ kind: 'parts' as const, head, tail })),
      fc.integer({ min: 0, max: 3 }).map((count) => ({ kind: 'complete' as const, count })),
      fc.constant({ kind: 'flush' as const }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), fc.integer({ min: 1, max: 256 }), (steps, batchBytes) => {
        const sink = new LaterSink();
        const batch = new LineBatch(sink, batchBytes, 60_000);
        sink.batch = batch;
        const expected: Buffer[] = [];
        for (const each of steps) {
          if (each.kind === 'line') {
            batch.write(each.text);
            expected.push(Buffer.from(each.text));
          } else if (each.kind === 'parts') {
            batch.writeParts(each.head, Buffer.from('mid'), each.tail);
            expected.push(Buffer.from(each.head), Buffer.from('mid'), Buffer.from(each.tail));
          } else if (each.kind === 'complete') sink.complete(each.count);
          else batch.flush();
        }
        batch.flushSync();
        expect(Buffer.concat(sink.output).equals(Buffer.concat(expected))).toBe(true);
      }),
    );
  });

  it('waits for the batch to fill, then hands it over whole', () => {
    const sink = new KeepingSink();
    const batch = new LineBatch(sink, 100, 60_000);
    const line = `${'x'.repeat(39)}\n`;
    batch.write(line);
    batch.write(line);
    expect(sink.chunks).toEqual([]);
    batch.write(line);
    expect(sink.chunks.map(String)).toEqual([line.repeat(3)]);
  });

  it('hands over a light batch after the wait', () => {
    jest.useFakeTimers();
    const sink = new KeepingSink();
    const batch = new LineBatch(sink, 32 * 1024, 250);
    batch.write('a\n');
    jest.advanceTimersByTime(249);
    expect(sink.chunks).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(sink.chunks.map(String)).toEqual(['a\n']);
    jest.advanceTimersByTime(1000);
    expect(sink.chunks).toHaveLength(1);
  });

  it('takes a line longer than its buffer', () => {
    const sink = new KeepingSink();
    const batch = new LineBatch(sink, 16, 60_000);
    const long = `${'é'.repeat(100)}\n`;
    batch.write('a\n');
    batch.write(long);
    expect(sink.text()).toBe(`a\n${long}`);
  });

  it('has everything written out when told to before the process exits', () => {
    const sink = new KeepingSink();
    const batch = new LineBatch(sink, 32 * 1024, 60_000);
    batch.writeParts('{"a":', Buffer.from('1'), '}\n');
    batch.flushSync();
    expect(sink.text()).toBe('{"a":1}\n');
    expect(sink.syncFlushes).toBe(1);
  });
});
