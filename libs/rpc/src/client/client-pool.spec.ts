import { describe, expect, it } from 'vitest';
import { ClientPool } from './client-pool';

class FakeClient {
  closed = false;
  constructor(readonly address: string) {}
  close(): void {
    this.closed = true;
  }
}

describe('ClientPool', () => {
  it('makes one client per address and closes the ones removed', () => {
    const made: FakeClient[] = [];
    const sut = new ClientPool((address) => {
      const c = new FakeClient(address);
      made.push(c);
      return c;
    });
    const a = sut.get('10.0.0.1:9095');
    expect(sut.get('10.0.0.1:9095')).toBe(a);
    const b = sut.get('10.0.0.2:9095');
    expect(made).toEqual([a, b]);

    sut.remove('10.0.0.1:9095');
    expect(a.closed).toBe(true);
    expect(b.closed).toBe(false);
    expect(sut.addresses()).toEqual(['10.0.0.2:9095']);
    expect(sut.get('10.0.0.1:9095')).not.toBe(a);

    sut.closeAll();
    expect(made.every((c) => c.closed)).toBe(true);
    expect(sut.addresses()).toEqual([]);
  });
});
