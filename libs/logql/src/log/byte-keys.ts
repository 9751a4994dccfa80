/** Keys over raw line bytes, for caches that find a value without making a string of it. */

/** FNV-1a (32 bits) of `b[start, end)`, from `seed` (FNV's offset basis by default). */
export function fnv1a(b: Buffer, start: number, end: number, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ b[i], 0x01000193);
  return hash;
}

/** Whether `raw` holds exactly the bytes `b[start, end)`. */
export function sameBytes(raw: Uint8Array, b: Buffer, start: number, end: number): boolean {
  if (raw.length !== end - start) return false;
  for (let i = 0; i < raw.length; i++) if (raw[i] !== b[start + i]) return false;
  return true;
}
