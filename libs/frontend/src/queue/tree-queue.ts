import { Fifo } from './fifo';
import { Mapping, START_INDEX_WITH_LOCAL_QUEUE } from './mapping';

/** What `TreeQueue.dequeue` returns when there is nothing to take (items may be `undefined`). */
export const EMPTY: unique symbol = Symbol('empty');

/**
 * One node of a tenant's queue tree (Loki's `TreeQueue`): a local FIFO queue plus named
 * sub-queues. A dequeue serves the local queue and each sub-queue in turn (round-robin, each
 * with an equal share), recursing into the chosen sub-queue; a sub-queue is removed as soon as
 * it is empty. A node with no sub-queues always serves its local queue.
 */
export class TreeQueue<T> {
  /** The slot of this queue in its parent's mapping. */
  pos = START_INDEX_WITH_LOCAL_QUEUE;
  private readonly local = new Fifo<T>();
  private readonly children = new Mapping<TreeQueue<T>>();
  /** Round-robin cursor: the local queue, then the sub-queue slots in order. */
  private current = START_INDEX_WITH_LOCAL_QUEUE;
  private total = 0;

  constructor(readonly name: string) {}

  /** Items in the local queue and all sub-queues. */
  get length(): number {
    return this.total;
  }

  /** Appends an item to the queue at `path` below this one, creating the sub-queues needed. */
  enqueue(path: readonly string[], item: T): void {
    this.total++;
    if (path.length === 0) {
      this.local.push(item);
      return;
    }
    const [head, ...rest] = path as [string, ...string[]];
    let child = this.children.get(head);
    if (child === undefined) {
      child = new TreeQueue<T>(head);
      this.children.put(head, child);
    }
    child.enqueue(rest, item);
  }

  /** Takes the next item by round-robin, or `EMPTY` when the tree is empty. */
  dequeue(): T | typeof EMPTY {
    if (this.total === 0) return EMPTY;
    if (this.children.size === 0) return this.takeLocal();
    const maxIterations = this.children.slotCount + 1;
    for (let i = 0; i < maxIterations; i++) {
      if (this.current === START_INDEX_WITH_LOCAL_QUEUE) {
        this.current++;
        if (this.local.length > 0) return this.takeLocal();
      }
      const child = this.children.next(this.current);
      if (child === undefined) {
        this.current = START_INDEX_WITH_LOCAL_QUEUE;
        continue;
      }
      this.current = child.pos;
      const item = child.dequeue();
      if (child.length === 0) this.children.remove(child.name);
      if (item !== EMPTY) {
        this.total--;
        return item;
      }
    }
    return EMPTY;
  }

  /** A printable view: `name[local items]{children}` (for tests and debugging). */
  describe(): { name: string; local: T[]; children: ReturnType<TreeQueue<T>['describe']>[] } {
    return {
      name: this.name,
      local: this.local.toArray(),
      children: [...this.children.values()].map((c) => c.describe()),
    };
  }

  private takeLocal(): T | typeof EMPTY {
    if (this.local.length === 0) return EMPTY;
    this.total--;
    return this.local.shift() as T;
  }
}
