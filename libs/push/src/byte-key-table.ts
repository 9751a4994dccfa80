import { hashBytes } from '@logsvc/api';

/** Smallest slot array; it doubles whenever it is half full. */
const INITIAL_SLOTS = 1024;
const INITIAL_ARENA = 64 * 1024;

/**
 * A hash table keyed by byte ranges of other buffers (label strings inside a push body), so a
 * lookup needs no string: it hashes the bytes where they lie and compares them with a copy kept
 * in one arena. The keys of a busy table sit close together there, instead of each in a string
 * of its own somewhere in the heap. Open addressing with linear probing; no deletion, only
 * `clear`.
 */
export class ByteKeyTable<V> {
  /**
   * Two numbers per slot: the key's hash and its entry number + 1 (0: empty). A probe compares
   * hashes here, so it reads another key's bytes only when the hashes agree.
   */
  private slots = new Int32Array(2 * INITIAL_SLOTS);
  private slotCount = INITIAL_SLOTS;
  /** Two numbers per entry: where its key starts in the arena, and its length. */
  private keys = new Uint32Array(INITIAL_SLOTS);
  private values: V[] = [];
  private arena = Buffer.allocUnsafe(INITIAL_ARENA);
  private arenaUsed = 0;

  get size(): number {
    return this.values.length;
  }

  /** Bytes of the keys held. */
  get keyBytes(): number {
    return this.arenaUsed;
  }

  /** The value stored for the bytes `buf[start, end)`, if any. */
  get(buf: Uint8Array, start: number, end: number): V | undefined {
    const hash = hashBytes(buf, start, end);
    const slots = this.slots;
    const mask = this.slotCount - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[2 * slot + 1] - 1;
      if (entry < 0) return undefined;
      if (slots[2 * slot] === hash && this.keyEquals(entry, buf, start, end)) {
        return this.values[entry];
      }
    }
  }

  /** Stores `value` for the bytes `buf[start, end)`, which must not be in the table yet. */
  set(buf: Uint8Array, start: number, end: number, value: V): void {
    const entry = this.values.length;
    if (2 * (entry + 1) > this.slotCount) this.growSlots();
    if (2 * entry === this.keys.length) this.keys = grownCopy(this.keys);
    const length = end - start;
    if (this.arenaUsed + length > this.arena.length) this.growArena(length);
    this.arena.set(buf.subarray(start, end), this.arenaUsed);
    this.keys[2 * entry] = this.arenaUsed;
    this.keys[2 * entry + 1] = length;
    this.arenaUsed += length;
    this.values.push(value);
    this.place(entry, hashBytes(buf, start, end));
  }

  clear(): void {
    this.slots.fill(0);
    this.values = [];
    this.arenaUsed = 0;
  }

  private keyEquals(entry: number, buf: Uint8Array, start: number, end: number): boolean {
    const length = end - start;
    if (this.keys[2 * entry + 1] !== length) return false;
    const arena = this.arena;
    const at = this.keys[2 * entry] - start;
    for (let i = start; i < end; i++) if (arena[at + i] !== buf[i]) return false;
    return true;
  }

  private place(entry: number, hash: number): void {
    const mask = this.slotCount - 1;
    let slot = hash & mask;
    while (this.slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
    this.slots[2 * slot] = hash;
    this.slots[2 * slot + 1] = entry + 1;
  }

  private growSlots(): void {
    const old = this.slots;
    this.slotCount *= 2;
    this.slots = new Int32Array(2 * this.slotCount);
    for (let i = 0; i < old.length; i += 2)
      if (old[i + 1] !== 0) this.place(old[i + 1] - 1, old[i]);
  }

  private growArena(needed: number): void {
    const bigger = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.arenaUsed + needed));
    this.arena.copy(bigger, 0, 0, this.arenaUsed);
    this.arena = bigger;
  }
}

function grownCopy(from: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const to = new Uint32Array(2 * from.length);
  to.set(from);
  return to;
}
