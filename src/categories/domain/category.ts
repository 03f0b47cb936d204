/** Fields a client supplies for a category. */
export interface CategoryDraft {
  readonly name: string;
  readonly description?: string;
}

/** A group of pets, e.g. "Dogs". Names are unique regardless of case. */
export interface Category extends CategoryDraft {
  readonly id: number;
}
