import { randomBytes } from 'node:crypto';
import { ConfigError } from './app.config.js';
import { checkStartupConfig } from './startup-config.js';

const DATABASE_URL = 'postgres://u:p@db:5432/pets';
const KEY = randomBytes(32).toString('base64');

describe('checkStartupConfig', () => {
  it('refuses DATABASE_URL without WEBHOOKS_SECRET_KEY, naming the variable', () => {
    expect(() => checkStartupConfig({ DATABASE_URL })).toThrow(ConfigError);
    expect(() => checkStartupConfig({ DATABASE_URL })).toThrow(/^WEBHOOKS_SECRET_KEY must be set when DATABASE_URL is/);
    expect(() => checkStartupConfig({ DATABASE_URL, WEBHOOKS_SECRET_KEY: '' })).toThrow(/WEBHOOKS_SECRET_KEY/);
  });

  it('accepts DATABASE_URL with WEBHOOKS_SECRET_KEY', () => {
    const config = checkStartupConfig({ DATABASE_URL, WEBHOOKS_SECRET_KEY: KEY });
    expect(config.webhooks.secretKey).toEqual(Buffer.from(KEY, 'base64'));
  });

  it('accepts the embedded database without WEBHOOKS_SECRET_KEY (the key file in DATA_DIR)', () => {
    expect(checkStartupConfig({}).webhooks.secretKey).toBeUndefined();
  });
});
