import { describe, expect, it } from 'vitest';
import { countChanges, diffLines } from './diff';

describe('diffLines', () => {
  it('pairs a changed line with its replacement and keeps equal lines side by side', () => {
    const rows = diffLines('a: 1\nb: 2\nc: 3', 'a: 1\nb: 20\nc: 3');
    expect(rows.map((r) => r.kind)).toEqual(['same', 'changed', 'same']);
    expect(rows[1]).toEqual({
      kind: 'changed',
      left: { number: 2, text: 'b: 2' },
      right: { number: 2, text: 'b: 20' },
    });
    expect(countChanges(rows)).toBe(1);
  });

  it('shows lines only on one side as removed or added, with their own line numbers', () => {
    const rows = diffLines('x\ny\nz', 'x\nnew\nz\ntail');
    expect(rows.map((r) => [r.kind, r.left?.number, r.right?.number])).toEqual([
      ['same', 1, 1],
      ['changed', 2, 2],
      ['same', 3, 3],
      ['added', undefined, 4],
    ]);
    expect(diffLines('x\ny', 'x').map((r) => r.kind)).toEqual(['same', 'removed']);
  });

  it('finds no change between equal texts', () => {
    expect(countChanges(diffLines('a\nb', 'a\nb'))).toBe(0);
  });
});
