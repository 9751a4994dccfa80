/**
 * The `k` best of `members` by `rank` (negative: the first is better), best first: what
 * `members.sort(rank).slice(0, k)` gives, ties kept in `members` order as the stable sort
 * keeps them. For a small `k` against many members (topk over many series, per step) it
 * compares each member with the worst kept one only, instead of sorting them all; `members`
 * may be reordered.
 */
export function bestK(
  members: number[],
  k: number,
  rank: (a: number, b: number) => number,
): number[] {
  if (k * 4 >= members.length) return members.sort(rank).slice(0, k);
  const kept: number[] = [];
  for (const m of members) {
    let j: number;
    if (kept.length < k) {
      j = kept.length;
      kept.push(m);
    } else {
      // Not better than the worst kept: a stable sort would put it after all of them.
      if (rank(m, kept[k - 1]) >= 0) continue;
      j = k - 1;
      kept[j] = m;
    }
    // Up past those it beats, staying after its equals.
    while (j > 0 && rank(m, kept[j - 1]) < 0) {
      kept[j] = kept[j - 1];
      kept[--j] = m;
    }
  }
  return kept;
}
