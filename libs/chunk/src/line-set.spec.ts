import { describe, expect, it } from 'vitest';
import { LineSet } from './line-set';

describe('LineSet', () => {
  it('adds each distinct byte string once, wherever its bytes sit', () => {
    const sut = new LineSet();
    const buf = Buffer.from('abcabc');
    expect(sut.add(buf, 0, 3)).toBe(true);
    expect(sut.add(buf, 3, 6)).toBe(false);
    expect(sut.add(Buffer.from('xabc'), 1, 4)).toBe(false);
    expect(sut.add(buf, 0, 2)).toBe(true);
    expect(sut.add(buf, 0, 0)).toBe(true);
    expect(sut.add(Buffer.alloc(0), 0, 0)).toBe(false);
    expect(sut.size).toBe(3);
  });

  it('keeps working as it grows past its initial table and after clear', () => {
    const sut = new LineSet();
    const lines = Array.from({ length: 1000 }, (_, i) => Buffer.from(`line ${i % 700}`));
    const added = lines.filter((l) => sut.add(l, 0, l.length));
    expect(added).toHaveLength(700);
    sut.clear();
    expect(sut.size).toBe(0);
    expect(sut.add(lines[5], 0, lines[5].length)).toBe(true);
    expect(sut.add(Buffer.from('line 5'), 0, 6)).toBe(false);
    expect(sut.add(Buffer.from('line 6'), 0, 6)).toBe(true);
  });
});
