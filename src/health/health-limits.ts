/** Each dependency check of GET /health/ready gets one round trip and at most this long. */
export const HEALTH_CHECK_TIMEOUT_MS = 1_000;
