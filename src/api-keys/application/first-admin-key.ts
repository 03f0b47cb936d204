import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { generateApiKeySecret } from '@petstore/auth';
import { appConfig } from '../../config/app.config.js';
import { ApiKeysService } from './api-keys.service.js';

/** On a first start with no keys: register BOOTSTRAP_ADMIN_KEY, or make an admin key and print it once. */
@Injectable()
export class FirstAdminKey implements OnApplicationBootstrap {
  private readonly logger = new Logger('ApiKeys');

  constructor(
    private readonly keys: ApiKeysService,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const configured = this.config.bootstrapAdminKey;
    const secret = configured ?? generateApiKeySecret();
    const created = await this.keys.registerFirstAdminKey(secret);
    if (!created) return;
    if (configured) {
      this.logger.log(`Registered BOOTSTRAP_ADMIN_KEY as admin key ${created.id}`);
    } else {
      this.logger.warn(`No API keys existed, so admin key ${created.id} was created. It is shown only now: ${secret}`);
    }
  }
}
