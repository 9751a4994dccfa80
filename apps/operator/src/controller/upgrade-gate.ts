/**
 * After an operator upgrade every LogService's workloads render differently at once; rolling
 * them all together would restart every cluster's ingesters at the same time. The gate lets
 * one LogService at a time take workload changes that its spec did not ask for (the spec's
 * generation was already observed): the others wait until it has settled. Changes asked for
 * by a spec edit always pass.
 *
 * Kept in the leader's memory: a new leader starts with the slot free (a LogService already
 * rolling keeps rolling, since its workloads carry the new templates by then).
 */
export class UpgradeGate {
  private holder?: string;

  /** Whether `key` may apply operator-driven workload changes now; takes the slot if free. */
  enter(key: string): { readonly pass: true } | { readonly pass: false; readonly holder: string } {
    if (this.holder === undefined || this.holder === key) {
      this.holder = key;
      return { pass: true };
    }
    return { pass: false, holder: this.holder };
  }

  /** `key` has settled (or is gone, paused, blocked): the next one may go. */
  leave(key: string): void {
    if (this.holder === key) this.holder = undefined;
  }

  get current(): string | undefined {
    return this.holder;
  }
}
