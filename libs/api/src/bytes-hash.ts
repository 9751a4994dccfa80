/** 32-bit FNV-1a over `buf[start, end)`, as a signed 32-bit integer (it fits an Int32Array). */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h | 0;
}
