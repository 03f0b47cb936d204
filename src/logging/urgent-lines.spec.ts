import { createRootLogger, urgentLinesAtOnce } from './root-logger.js';

/** A batching stream that records what it was given and when it was told to write out. */
class RecordingStream {
  readonly events: string[] = [];
  write(line: string): void {
    this.events.push(`line ${JSON.parse(line).msg}`);
  }
  flush(): void {
    this.events.push('flush');
  }
}

describe('urgentLinesAtOnce', () => {
  it("leaves a request's routine lines to the batch and writes out warnings and errors at once", () => {
    const stream = new RecordingStream();
    const log = createRootLogger('debug', urgentLinesAtOnce(stream)).child({ reqId: 'r-1' });
    log.info('a');
    log.debug('b');
    log.warn('c');
    log.info('d');
    log.error('e');
    log.fatal('f');
    expect(stream.events).toEqual([
      'line a',
      'line b',
      'line c',
      'flush',
      'line d',
      'line e',
      'flush',
      'line f',
      'flush',
    ]);
  });

  it("writes out the service's own lines (outside requests) at once: start-up is seen when it happens", () => {
    const stream = new RecordingStream();
    const log = createRootLogger('info', urgentLinesAtOnce(stream));
    log.info('listening');
    log.child({ reqId: 'r-2' }).info('GET /pets 200');
    expect(stream.events).toEqual(['line listening', 'flush', 'line GET /pets 200']);
  });

  it("leaves the request writer's routine lines to the batch without reading them", () => {
    const stream = new RecordingStream();
    const destination = urgentLinesAtOnce(stream);
    destination.writeRoutine?.('{"msg":', { text: '"GET /pets 200"', bytes: Buffer.from('"GET /pets 200"') }, '}\n');
    destination.write('{"msg":"listening"}\n');
    expect(stream.events).toEqual(['line GET /pets 200', 'line listening', 'flush']);
  });

  it('passes a routine line on in its parts, with the bytes of its middle, to a stream that takes parts', () => {
    const parts: string[] = [];
    const destination = urgentLinesAtOnce({
      write: () => parts.push('whole'),
      writeParts: (head, middle, tail) => parts.push(head, Buffer.from(middle).toString(), tail),
      flush: () => parts.push('flush'),
    });
    destination.writeRoutine?.('{"msg":', { text: 'unused', bytes: Buffer.from('"GET /pets 200"') }, '}\n');
    expect(parts).toEqual(['{"msg":', '"GET /pets 200"', '}\n']);
  });

  it('passes a flush of the logger on', () => {
    const stream = new RecordingStream();
    createRootLogger('info', urgentLinesAtOnce(stream)).flush();
    expect(stream.events).toEqual(['flush']);
  });
});
