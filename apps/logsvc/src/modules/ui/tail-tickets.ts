import { randomBytes } from 'node:crypto';

/** How long a ticket may wait for its WebSocket. */
export const TAIL_TICKET_TTL_MS = 30_000;
/** Tickets held at most; the oldest unused ones go first. */
const MAX_TICKETS = 10_000;

interface Ticket {
  tenant: string;
  expiresAt: number;
}

/**
 * One-time tail tickets: a request that carries X-Scope-OrgID gets a random ticket bound to its
 * tenant; opening the browser's tail WebSocket spends it. So the socket's tenant is the one the
 * header gave, and no URL parameter can name another.
 */
export class TailTickets {
  private readonly tickets = new Map<string, Ticket>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(tenant: string): string {
    this.dropExpired();
    if (this.tickets.size >= MAX_TICKETS) {
      const oldest = this.tickets.keys().next();
      if (oldest.done !== true) this.tickets.delete(oldest.value);
    }
    const ticket = randomBytes(24).toString('base64url');
    this.tickets.set(ticket, { tenant, expiresAt: this.now() + TAIL_TICKET_TTL_MS });
    return ticket;
  }

  /** The tenant of a valid ticket, which is used up; undefined for an unknown or expired one. */
  spend(ticket: string): string | undefined {
    const found = this.tickets.get(ticket);
    if (found === undefined) return undefined;
    this.tickets.delete(ticket);
    return found.expiresAt > this.now() ? found.tenant : undefined;
  }

  private dropExpired(): void {
    const now = this.now();
    // Insertion order is expiry order (one lifetime for all).
    for (const [key, t] of this.tickets) {
      if (t.expiresAt > now) break;
      this.tickets.delete(key);
    }
  }
}
