/** Fields a client supplies for a category. */
export interface CategoryDraft {
  readonly name: string;
  readonly description?: string;
}

/** A group of pets, e.g. "Dogs". Names are unique regardless of case. */
export interface Category extends CategoryDraft {
  readonly id: number;
}

/** Whether a replace left every field as it was (then it is no change, and no event). */
export function sameCategory(a: Category, b: Category): boolean {
  return a.id === b.id && a.name === b.name && a.description === b.description;
}
