/**
 * Removes `item` from `list` by moving the last element into its place (order is
 * not kept); the array's storage keeps no reference to it.
 *
 * For what is tracked per request (responses in flight): a long-lived Set or Map
 * of short-lived objects rehashes into new tables in the old generation, and each
 * table it leaves behind still points at the objects it held. Dead, such a table
 * still counts as a root for every scavenge until the next full collection, so
 * each response it points at (and all it references) outlives the young
 * generation: a copy, then a promotion, per response. An array emptied this way
 * holds nothing it no longer tracks.
 */
export function removeUnordered<T>(list: T[], item: T): void {
  const index = list.indexOf(item);
  if (index < 0) return;
  const last = list.pop() as T;
  if (index < list.length) list[index] = last;
}
