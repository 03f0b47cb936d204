/** Where a batch of lines goes: pino's SonicBoom in buffer mode, which writes it asynchronously. */
export interface BatchSink {
  write(chunk: Buffer): unknown;
  flushSync(): void;
}

/** Longest a UTF-16 code unit gets in UTF-8 (a surrogate pair's 4 bytes are two units). */
const MAX_UTF8_BYTES_PER_UNIT = 3;

/** Buffers kept for reuse once written: two are enough while writes keep up. */
const MAX_SPARE_BUFFERS = 2;
/** Buffers waiting for their writes: beyond these (a sink that stopped saying), the oldest is let go. */
const MAX_RETIRED_BUFFERS = 8;

/**
 * Log lines encoded straight into one buffer and handed to the sink a batch at a
 * time: when the batch reaches `batchBytes`, `maxWaitMs` after its first line, or
 * when told (`flush`). A line may come in parts (`writeParts`), such as a request
 * line whose address and headers part is kept encoded per connection: no string of
 * the whole line is made, no buffer per line, and no copy of the lines into one
 * buffer at write time (what SonicBoom's own batching costs per line).
 *
 * A full buffer is reused once the sink says its bytes are written (`written`):
 * a new 128 KiB buffer every few hundred lines is external memory V8 counts, and
 * made it run a full collection every second or so under load (a pause of 2-5 ms
 * for every request in flight).
 */
export class LineBatch {
  private buffer: Buffer;
  /** Bytes handed to the sink so far, and bytes it has said are written. */
  private handedBytes = 0;
  private writtenBytes = 0;
  /** Buffers left behind, each with the count of bytes handed over when it was left: reusable once those are written. */
  private readonly retired: { readonly buffer: Buffer; readonly handedBytes: number }[] = [];
  private readonly spare: Buffer[] = [];
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
    this.handedBytes += chunk.length;
    this.sink.write(chunk);
  }

  /** Told by the sink: `bytes` more of what it was handed are written (in the order handed). */
  written(bytes: number): void {
    this.writtenBytes += bytes;
    while (this.retired.length > 0 && this.retired[0].handedBytes <= this.writtenBytes) {
      const { buffer } = this.retired.shift() as { buffer: Buffer };
      if (buffer.length === 2 * this.batchBytes && this.spare.length < MAX_SPARE_BUFFERS) this.spare.push(buffer);
    }
  }

  /** Hands what is batched to the sink and has it written before returning (the process is exiting). */
  flushSync(): void {
    this.flush();
    this.sink.flushSync();
  }

  /** Makes room for `bytes` more, in another buffer when the rest of this one is too small. */
  private reserve(bytes: number): void {
    if (this.used + bytes <= this.buffer.length) return;
    this.flush();
    this.retired.push({ buffer: this.buffer, handedBytes: this.handedBytes });
    if (this.retired.length > MAX_RETIRED_BUFFERS) this.retired.shift();
    this.written(0); // it may be written already
    const size = 2 * this.batchBytes;
    this.buffer = (bytes <= size ? this.spare.pop() : undefined) ?? Buffer.allocUnsafe(Math.max(size, bytes));
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
