/**
 * A map whose values also sit at stable numbered slots, as Loki's `queue.Mapping`: removing a
 * key leaves its slot empty (so the other values keep their positions and a round-robin cursor
 * stays valid), and the next insert reuses the oldest freed slot. Round-robin orders therefore
 * match Loki's exactly, including after queues are pruned and re-created.
 */

/** The cursor value before the first slot (Loki's `StartIndex`). */
export const START_INDEX = -1;
/** The cursor value that starts at a tree queue's local queue (Loki's `StartIndexWithLocalQueue`). */
export const START_INDEX_WITH_LOCAL_QUEUE = -2;

export interface Positioned {
  pos: number;
}

export class Mapping<V extends Positioned> {
  private readonly byKey = new Map<string, V>();
  /** Slot → key; `undefined` marks a freed slot. */
  private readonly slots: (string | undefined)[] = [];
  /** Freed slots, oldest first. */
  private readonly free: number[] = [];

  get size(): number {
    return this.byKey.size;
  }

  /** The number of slots, used or free (bounds a round-robin pass). */
  get slotCount(): number {
    return this.slots.length;
  }

  get(key: string): V | undefined {
    return this.byKey.get(key);
  }

  /** Adds a value under a key not present yet and sets its `pos`. */
  put(key: string, value: V): void {
    const slot = this.free.shift();
    if (slot === undefined) {
      value.pos = this.slots.length;
      this.slots.push(key);
    } else {
      value.pos = slot;
      this.slots[slot] = key;
    }
    this.byKey.set(key, value);
  }

  remove(key: string): void {
    const value = this.byKey.get(key);
    if (value === undefined) return;
    this.byKey.delete(key);
    this.slots[value.pos] = undefined;
    this.free.push(value.pos);
  }

  /**
   * The first value in a slot after `index`, or `undefined` when none is left before the end
   * (Loki's `GetNext` with `ErrOutOfBounds`).
   */
  next(index: number): V | undefined {
    for (let i = index + 1; i < this.slots.length; i++) {
      const key = this.slots[i];
      if (key !== undefined) return this.byKey.get(key);
    }
    return undefined;
  }

  values(): IterableIterator<V> {
    return this.byKey.values();
  }
}
