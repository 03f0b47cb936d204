/** Where a batch of lines goes: pino's SonicBoom in buffer mode, which writes it asynchronously. */
export interface BatchSink {
  write(chunk: Buffer): unknown;
  flushSync(): void;
}

/** Longest a UTF-16 code unit gets in UTF-8 (a surrogate pair's 4 bytes are two units). */
const MAX_UTF8_BYTES_PER_UNIT = 3;

/**
 * Log lines encoded straight into one buffer and handed to the sink a batch at a
 * time: when the batch reaches `batchBytes`, `maxWaitMs` after its first line, or
 * when told (`flush`). A line may come in parts (`writeParts`), such as a request
 * line whose address and headers part is kept encoded per connection: no string of
 * the whole line is made, no buffer per line, and no copy of the lines into one
 * buffer at write time (what SonicBoom's own batching costs per line).
 */
export class LineBatch {
  private buffer: Buffer;
  /** Where the batch not yet handed over begins in `buffer`, and where it ends. */
  private start = 0;
  private used = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sink: BatchSink,
    private readonly batchBytes: number,
    private readonly maxWaitMs: number,
  ) {
    this.buffer = Buffer.allocUnsafe(2 * batchBytes);
  }

  /** Adds a whole line. */
  write(line: string): void {
    this.reserve(line.length * MAX_UTF8_BYTES_PER_UNIT);
    this.used += this.buffer.write(line, this.used);
    this.added();
  }

  /** Adds the line `head`, `middle`, `tail`. */
  writeParts(head: string, middle: Uint8Array, tail: string): void {
    this.reserve((head.length + tail.length) * MAX_UTF8_BYTES_PER_UNIT + middle.length);
    const buffer = this.buffer;
    let at = this.used + buffer.write(head, this.used);
    buffer.set(middle, at);
    at += middle.length;
    this.used = at + buffer.write(tail, at);
    this.added();
  }

  /**
   * Hands what is batched to the sink now. The sink keeps its chunk until written:
   * later lines go after it in the same buffer (never over it), or into a new one.
   */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.used === this.start) return;
    const chunk = this.buffer.subarray(this.start, this.used);
    this.start = this.used;
    this.sink.write(chunk);
  }

  /** Hands what is batched to the sink and has it written before returning (the process is exiting). */
  flushSync(): void {
    this.flush();
    this.sink.flushSync();
  }

  /** Makes room for `bytes` more, in a new buffer when the rest of this one is too small. */
  private reserve(bytes: number): void {
    if (this.used + bytes <= this.buffer.length) return;
    this.flush();
    this.buffer = Buffer.allocUnsafe(Math.max(2 * this.batchBytes, bytes));
    this.start = 0;
    this.used = 0;
  }

  private added(): void {
    if (this.used - this.start >= this.batchBytes) this.flush();
    else if (this.timer === null) {
      this.timer = setTimeout(() => this.flush(), this.maxWaitMs);
      this.timer.unref();
    }
  }
}
