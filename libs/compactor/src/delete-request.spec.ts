import { describe, expect, it } from 'vitest';
import { type DeleteRequestRecord, pendingDeleteRequests } from './delete-request';

const record = (id: string, createdAtMs: number, processed: boolean[]): DeleteRequestRecord => ({
  requestId: id,
  tenant: 't',
  query: '{a="b"}',
  createdAtMs,
  parts: processed.map((p, i) => ({ startMs: i, endMs: i + 1, processed: p })),
});

describe('pendingDeleteRequests (Loki loki_compactor_pending_delete_requests_count and age)', () => {
  const cancel = 60_000;

  it('is zero without requests past their cancel period', () => {
    expect(pendingDeleteRequests([record('a', 100_000, [false])], 159_999, cancel)).toEqual({
      count: 0,
      oldestAgeSeconds: 0,
    });
  });

  it('counts unprocessed parts of requests past the cancel period; ages the oldest', () => {
    const records = [
      record('a', 100_000, [false, true, false]), // two parts pending since 160s
      record('b', 50_000, [true]), // processed: not pending
      record('c', 120_000, [false]), // pending since 180s
      record('d', 900_000, [false]), // still cancelable
    ];
    expect(pendingDeleteRequests(records, 200_500, cancel)).toEqual({
      count: 3,
      oldestAgeSeconds: 40,
    });
  });
});
