/** A binary min-heap under a comparison function, for k-way merges. */
export class Heap<T> {
  private readonly items: T[] = [];

  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  /** Removes the top item. */
  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Restores order after the top item's key changed. */
  fixTop(): void {
    if (this.items.length > 1) this.siftDown(0);
  }

  private siftDown(i: number): void {
    const items = this.items;
    const n = items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const child = r < n && this.less(items[r], items[l]) ? r : l;
      if (!this.less(items[child], items[i])) return;
      [items[i], items[child]] = [items[child], items[i]];
      i = child;
    }
  }
}
