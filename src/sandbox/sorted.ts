/**
 * Sorted copies of record lists, kept between requests. A list route answers one page of records
 * in some order; at scale (SandboxOptions.scale: tens of thousands of orders or conversations)
 * sorting them all on every request costs more than the rest of the answer. A copy is reused while
 * its source is the same array holding as many records and the copy is still in order (records
 * change in place: a new message moves a conversation up, a status change an order); otherwise it
 * is sorted again. Every comparator given ends on a unique id, so the order is total and filtering
 * the sorted copy gives exactly what sorting the filtered records gives.
 */
export class SortedLists<T> {
  private readonly lists = new Map<string, { source: readonly T[]; length: number; sorted: T[] }>();

  /**
   * The records of `source` that `pick` keeps (every one without it), sorted by `compare`. `key`
   * names the order and the pick: the same key must always come with the same two.
   */
  get(key: string, source: readonly T[], compare: (a: T, b: T) => number, pick?: (item: T) => boolean): T[] {
    const kept = this.lists.get(key);
    if (kept && kept.source === source && kept.length === source.length && inOrder(kept.sorted, compare)) return kept.sorted;
    const sorted = (pick ? source.filter(pick) : [...source]).sort(compare);
    this.lists.set(key, { source, length: source.length, sorted });
    return sorted;
  }
}

function inOrder<T>(items: readonly T[], compare: (a: T, b: T) => number): boolean {
  for (let i = 1; i < items.length; i++) if (compare(items[i - 1]!, items[i]!) > 0) return false;
  return true;
}
