/**
 * Maps `items` through `fn` with at most `limit` calls in flight; results keep input order.
 * The first rejection rejects the whole call (calls already started still settle).
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  const workers: Promise<void>[] = [];
  for (let w = 0; w < Math.max(1, Math.min(limit, items.length)); w++) workers.push(worker());
  await Promise.all(workers);
  return results;
}
