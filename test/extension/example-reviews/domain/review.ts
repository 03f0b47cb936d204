/** A review of a pet by the API key that wrote it. */
export interface Review {
  readonly id: number;
  readonly petId: number;
  readonly authorKeyId: number;
  /** 1 to 5 stars. */
  readonly rating: number;
  readonly comment: string | null;
  /** Whether the author had a completed order of the pet when writing it. */
  readonly verifiedPurchase: boolean;
  readonly createdAt: Date;
}

export interface ReviewViewer {
  readonly keyId: number;
  readonly admin: boolean;
}

/** Only the author, or an admin, may delete a review. */
export const canRemove = (viewer: ReviewViewer, review: Pick<Review, 'authorKeyId'>): boolean =>
  viewer.admin || viewer.keyId === review.authorKeyId;

/** The comment as stored: surrounding blanks trimmed, a blank comment is no comment. */
export function normalizeComment(comment: string | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}
