import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestQueue } from './request-queue';

const tenant = fc.constantFrom('t1', 't2', 't3');
const path = fc.array(fc.constantFrom('a', 'b', ''), { maxLength: 3 });
const op = fc.oneof(
  fc.record({ kind: fc.constant('enqueue' as const), tenant, path }),
  fc.record({ kind: fc.constant('dequeue' as const) }),
);

describe('RequestQueue properties', () => {
  it('dequeues every accepted item exactly once, FIFO within each queue, within the limit', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.integer({ min: 1, max: 20 }), (ops, max) => {
        const q = new RequestQueue<{ id: number; queue: string }>({
          maxOutstandingPerTenant: max,
        });
        const accepted = new Set<number>();
        const seen = new Set<number>();
        const lastPerQueue = new Map<string, number>();
        const take = (): boolean => {
          const d = q.dequeue();
          if (d === undefined) return false;
          expect(seen.has(d.item.id)).toBe(false);
          expect(accepted.has(d.item.id)).toBe(true);
          seen.add(d.item.id);
          expect(d.item.queue.startsWith(d.tenant + '/')).toBe(true);
          expect(d.item.id).toBeGreaterThan(lastPerQueue.get(d.item.queue) ?? -1);
          lastPerQueue.set(d.item.queue, d.item.id);
          return true;
        };
        let id = 0;
        for (const o of ops) {
          if (o.kind === 'dequeue') {
            const had = q.length() > 0;
            expect(take()).toBe(had);
            continue;
          }
          const before = q.length(o.tenant);
          const item = { id: id++, queue: `${o.tenant}/${JSON.stringify(o.path)}` };
          try {
            q.enqueue(o.tenant, o.path, item);
            accepted.add(item.id);
          } catch (e) {
            expect(before).toBe(max);
            expect((e as Error).message).toBe('too many outstanding requests');
          }
          expect(q.length(o.tenant)).toBeLessThanOrEqual(max);
        }
        while (take());
        expect(seen).toEqual(accepted);
        expect(q.length()).toBe(0);
        expect(q.tenantCount).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
