import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

/**
 * Node's default root certificates plus the PEM file of WEBHOOKS_CA_FILE (a private CA, or
 * the tests' own), for https deliveries; undefined when no file is configured (Node's
 * defaults apply). An unreadable file or one with no certificate stops the start-up.
 */
export function trustedCertificates(caFile: string | undefined): string[] | undefined {
  if (caFile === undefined) return undefined;
  let pem: string;
  try {
    pem = readFileSync(caFile, 'utf8');
  } catch (error) {
    throw new Error(
      `WEBHOOKS_CA_FILE: cannot read ${caFile} (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new Error(`WEBHOOKS_CA_FILE: ${caFile} holds no PEM certificate`);
  return [...rootCertificates, pem];
}
