import { Injectable } from '@nestjs/common';
import { RateLimiter } from '@petstore/rate-limit';
import { type AuditContext, AuditTrail, changesBetween } from '../audit/index.js';
import { addressBanIds, banViews } from './bans.js';

/** Lifting an address's bans, recorded in the audit log once lifted. */
@Injectable()
export class AddressUnbans {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly audit: AuditTrail,
  ) {}

  /**
   * Lifts the plan ban and route blocks of `address` (an IPv6 address: its /64) on
   * every instance, and records it with when the ban would have ended (none: not banned).
   */
  async unban(address: string, by: AuditContext): Promise<void> {
    const bans = await this.limiter.bans();
    const ids = addressBanIds(address, bans);
    const lifted = new Set(ids);
    const until = banViews(bans.filter((ban) => lifted.has(ban.client))).at(-1)?.until;
    for (const id of ids) await this.limiter.unban(id);
    const bannedUntil = until === undefined ? null : new Date(until);
    await this.audit.recordApplied({
      ...by,
      action: 'address.unbanned',
      target: { type: 'address', id: ids[0].slice('ip:'.length) },
      changes: changesBetween({ bannedUntil }, { bannedUntil: null }, ['bannedUntil']),
    });
  }
}
