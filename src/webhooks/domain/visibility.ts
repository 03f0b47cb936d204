/** Who is looking: an API key, and whether it holds the admin scope. */
export interface EventViewer {
  readonly keyId: number;
  readonly admin: boolean;
}

/**
 * Catalogue events (stock, pet status) are for every key; an order's events only
 * for the key that owns the order, and for admin keys. The same rule filters the
 * feed and decides which webhook endpoints receive an event.
 */
export function canSee(viewer: EventViewer, event: { readonly ownerKeyId: number | null }): boolean {
  return event.ownerKeyId === null || viewer.admin || event.ownerKeyId === viewer.keyId;
}
