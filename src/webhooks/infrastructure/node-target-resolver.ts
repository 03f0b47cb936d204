import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { TargetResolver } from '../domain/ports.js';

/**
 * The system resolver (as the HTTP client itself would resolve), every address of the
 * host in the resolver's order. A failure rejects with its reason (`ENOTFOUND`, `EAI_AGAIN`…),
 * which the attempt records as its error.
 */
export class NodeTargetResolver implements TargetResolver {
  async resolve(host: string): Promise<string[]> {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    if (isIP(bare)) return [bare];
    try {
      return (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new Error(`${bare} does not resolve (${code})`, { cause: error });
    }
  }
}
