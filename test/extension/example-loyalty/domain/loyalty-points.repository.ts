import type { Transaction } from '../../../../src/shared/unit-of-work/unit-of-work.js';

/** Port: points per API key. Changes run in the transaction of the order that causes them. */
export interface LoyaltyPointsRepository {
  /** The key's points; 0 for a key that never earned any. */
  pointsOf(keyId: number): Promise<number>;
  /** Adds points to the key's balance (opened at 0 on its first points). */
  add(keyId: number, points: number, tx: Transaction): Promise<void>;
  /** Takes points back as one guarded change; false, changing nothing, when the balance holds fewer. */
  take(keyId: number, points: number, tx: Transaction): Promise<boolean>;
}

export const LOYALTY_POINTS_REPOSITORY = Symbol('LoyaltyPointsRepository');
