import { describe, expect, it } from 'vitest';
import { UpgradeGate } from './upgrade-gate';

describe('UpgradeGate', () => {
  it('lets one LogService at a time through, the next once it leaves', () => {
    const sut = new UpgradeGate();
    expect(sut.enter('ns/a')).toEqual({ pass: true });
    expect(sut.enter('ns/a')).toEqual({ pass: true });
    expect(sut.enter('ns/b')).toEqual({ pass: false, holder: 'ns/a' });
    sut.leave('ns/b'); // not the holder: nothing changes
    expect(sut.current).toBe('ns/a');
    sut.leave('ns/a');
    expect(sut.enter('ns/b')).toEqual({ pass: true });
  });
});
