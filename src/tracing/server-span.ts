/**
 * What the request's span and the sampler agree on (`traceRequests` in the service's
 * bundle, `CallerTrustSampler` in the SDK's): plain values, no import of either side.
 */

/** The socket's peer address, given to the sampler at a request span's start (semantic conventions' name). */
export const PEER_ADDRESS = 'network.peer.address';

/** Requests that make no trace: the probes and the metrics scrape, every few seconds and of no interest. */
export const UNTRACED_PATHS = /^\/(health\/(live|ready)|metrics)\/?(\?|$)/;
