/** An order for units of one pet, owned by the API key that placed it. */
export interface Order {
  readonly id: number;
  readonly petId: number;
  readonly quantity: number;
  readonly shipDate: Date | null;
  readonly complete: boolean;
  readonly ownerKeyId: number;
}

export interface NewOrder {
  readonly petId: number;
  readonly quantity: number;
  readonly shipDate?: Date;
}

/** Who is asking: a key sees its own orders; an admin key sees all. */
export interface OrderViewer {
  readonly keyId: number;
  readonly admin: boolean;
}

export function canSee(viewer: OrderViewer, order: Order): boolean {
  return viewer.admin || order.ownerKeyId === viewer.keyId;
}

export const MIN_ORDER_QUANTITY = 1;
export const MAX_ORDER_QUANTITY = 1000;
