import { Injectable, Optional } from '@nestjs/common';
import { ApiKeyStore } from '@petstore/auth';
import { Clock, systemClock } from '../../shared/clock.js';
import { ApiKeyNotFoundError } from '../domain/api-key.errors.js';
import { type DailyUsage, everyDay, utcDate } from '../domain/key-usage.js';
import { usageRange } from '../domain/key-usage-range.js';
import { KeyUsageRepository } from '../domain/key-usage.repository.js';

/** Reads the daily usage of API keys (written by `KeyUsageRecorder`). */
@Injectable()
export class KeyUsageService {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly usage: KeyUsageRepository,
    @Optional() private readonly clock: Clock = systemClock,
  ) {}

  /**
   * Every day of the range (default: the last 30 days), zeros for days without
   * traffic; revoked keys included. Counts not yet flushed by an instance are not in it.
   */
  async daily(keyId: number, query: { readonly from?: string; readonly to?: string }): Promise<DailyUsage[]> {
    const { from, to } = usageRange(query, utcDate(this.clock.now().getTime()));
    if (!(await this.keys.findById(keyId))) throw new ApiKeyNotFoundError(keyId);
    return everyDay(from, to, await this.usage.daily(keyId, from, to));
  }
}
