/** Types of webhook-receiver.mjs. */
export interface ReceivedMessage {
  readonly path: string;
  readonly id: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly body: string;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly received: ReceivedMessage[];
  /** The status to answer a message with (replaceable). */
  respond: (message: ReceivedMessage) => number;
  close(): Promise<void>;
}

export declare function startReceiver(
  respond?: (message: ReceivedMessage) => number,
  options?: { delayMs?: number },
): Promise<Receiver>;
