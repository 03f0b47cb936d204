/** Points a key earns for each unit it orders, and loses again when the order is cancelled. */
export const POINTS_PER_UNIT = 10;

export const pointsFor = (units: number): number => units * POINTS_PER_UNIT;

/** A key's points. */
export interface LoyaltyBalance {
  readonly keyId: number;
  readonly points: number;
}

/** Who is asking: a key sees its own points; an admin key sees every key's. */
export interface LoyaltyViewer {
  readonly keyId: number;
  readonly admin: boolean;
}

export function canSee(viewer: LoyaltyViewer, keyId: number): boolean {
  return viewer.admin || viewer.keyId === keyId;
}
