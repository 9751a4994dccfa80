import type { Kv } from '../kv';

/** A KV value as text (null when the key is absent). */
export const text = (value: Buffer | null): string | null =>
  value === null ? null : value.toString();

/** A cas update that counts: the current value plus one. */
export const increment = (current: Buffer | null): Buffer =>
  Buffer.from(String(Number(text(current) ?? '0') + 1));

/** Watches `key` of `kv`: the values delivered so far (as text), and the watch's stop. */
export function watchValues(kv: Kv, key: string): { values: (string | null)[]; stop: () => void } {
  const values: (string | null)[] = [];
  const stop = kv.watch(key, (value) => values.push(text(value)));
  return { values, stop };
}
