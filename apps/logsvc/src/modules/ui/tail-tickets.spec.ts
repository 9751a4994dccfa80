import { describe, expect, it } from 'vitest';
import { TAIL_TICKET_TTL_MS, TailTickets } from './tail-tickets';

describe('TailTickets', () => {
  it('gives the tenant of a ticket once, within its lifetime only', () => {
    let now = 1_000;
    const sut = new TailTickets(() => now);
    const a = sut.issue('team-a');
    const b = sut.issue('team-b');
    expect(a).not.toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(sut.spend(a)).toBe('team-a');
    expect(sut.spend(a)).toBeUndefined();
    now += TAIL_TICKET_TTL_MS;
    expect(sut.spend(b)).toBeUndefined();
    expect(sut.spend('made-up')).toBeUndefined();
  });
});
