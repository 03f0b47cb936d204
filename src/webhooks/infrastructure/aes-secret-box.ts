import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig } from '../../config/app.config.js';
import type { SecretBox } from '../domain/ports.js';

/** Signing secrets sealed with AES-256-GCM under a server key: `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export class AesSecretBox implements SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new RangeError('The webhook secret key must be 32 bytes');
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), sealed]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Not a sealed webhook secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/**
 * The key of WEBHOOKS_SECRET_KEY, else the one kept in `<dataDir>/webhook-secret.key`
 * (created on first use, readable by the service's user only). Instances sharing
 * a database must share the key: set WEBHOOKS_SECRET_KEY for them.
 */
export function loadSecretKey(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured;
  const file = join(dataDir, 'webhook-secret.key');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another instance wrote it first
    }
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold the base64 of 32 bytes`);
  return key;
}

/**
 * The box under the configured key (`loadSecretKey`), loaded on first use, so that an
 * instance that never seals or opens a secret never creates a key file.
 */
@Injectable()
export class LazySecretBox implements SecretBox {
  private box: AesSecretBox | undefined;
  private readonly key: () => Buffer;

  constructor(@Inject(appConfig.KEY) { webhooks, dataDir }: ConfigType<typeof appConfig>) {
    this.key = () => loadSecretKey(webhooks.secretKey, dataDir);
  }

  seal(secret: string): string {
    return this.inner().seal(secret);
  }

  open(sealed: string): string {
    return this.inner().open(sealed);
  }

  private inner(): AesSecretBox {
    return (this.box ??= new AesSecretBox(this.key()));
  }
}
