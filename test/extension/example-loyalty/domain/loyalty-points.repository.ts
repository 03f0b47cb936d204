import type { Transaction } from '../../../../src/shared/unit-of-work/unit-of-work.js';

/** Port: points per API key. Changes run in the transaction of the order that causes them. */
export abstract class LoyaltyPointsRepository {
  /** The key's points; 0 for a key that never earned any. */
  abstract pointsOf(keyId: number): Promise<number>;
  /** Adds points to the key's balance (opened at 0 on its first points). */
  abstract add(keyId: number, points: number, tx: Transaction): Promise<void>;
  /** Takes points back as one guarded change; false, changing nothing, when the balance holds fewer. */
  abstract take(keyId: number, points: number, tx: Transaction): Promise<boolean>;
}
