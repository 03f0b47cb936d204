/** Whether a Redis server answers PING at `url` (redis://host:port), on a client that never retries. */
export function redisAnswersPing(url: string): Promise<boolean>;
