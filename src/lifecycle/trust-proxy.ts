import proxyaddr from 'proxy-addr';

/** Whether the proxy at `address`, `hop` hops from the server (0: the peer), is trusted. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * `TRUST_PROXY` compiled once into the function Express would make of it, for
 * the forms Express documents for its `trust proxy` setting: `true`, `false`, a
 * number of hops, or comma-separated addresses, subnets and the names
 * `loopback`, `linklocal`, `uniquelocal` (compiled, as Express compiles them,
 * by proxy-addr's `compile`). Unset: nothing is trusted, as Express trusts
 * nothing when the setting is left alone.
 *
 * The function is both handed to Express (`app.set('trust proxy', fn)`, the
 * documented custom-function form, which Express uses as it is) and asked about
 * the peer of a refusal made before any request exists: one judgement for both.
 */
export function compileTrustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value === 'false') return () => false;
  if (value === 'true') return () => true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return proxyaddr.compile(value.split(',').map((part) => part.trim()));
}
