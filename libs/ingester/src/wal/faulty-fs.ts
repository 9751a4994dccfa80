import { open, type FileHandle } from 'node:fs/promises';
import type { WalFs } from './wal-fs';

/**
 * A WAL file layer for tests: writes fail with ENOSPC while `full` is set, and while `stall()`
 * is in effect fsyncs wait until `release()` (a slow disk), then sync or fail as it says.
 */
export class FaultyWalFs implements WalFs {
  full = false;
  /** fsyncs that reached the stall so far (a test waits for one before it goes on). */
  stalledSyncs = 0;
  private syncsAtStall = 0;
  private gate: Promise<'sync' | 'enospc'> | null = null;
  private openGate: (outcome: 'sync' | 'enospc') => void = () => {};

  stall(): void {
    if (!this.gate) this.syncsAtStall = this.stalledSyncs;
    this.gate ??= new Promise((resolve) => (this.openGate = resolve));
  }

  /** Resolves once an fsync is held back by the current `stall()`: a write is in flight. */
  async untilStalled(): Promise<void> {
    while (this.stalledSyncs === this.syncsAtStall) await new Promise((r) => setTimeout(r, 1));
  }

  /** Lets the held fsyncs go: they sync, or fail with ENOSPC (also when `full` is set then). */
  release(outcome: 'sync' | 'enospc' = 'sync'): void {
    this.gate = null;
    this.openGate(outcome);
  }

  async open(path: string, flags: 'wx' | 'w'): Promise<FileHandle> {
    const fh = await open(path, flags);
    const enospc = (): Promise<never> =>
      Promise.reject(
        Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
      );
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const fs = this;
    return new Proxy(fh, {
      get(target, prop) {
        if ((prop === 'writev' || prop === 'write' || prop === 'writeFile') && fs.full) {
          return enospc;
        }
        if (prop === 'datasync' && fs.gate) {
          const gate = fs.gate;
          // The data is checked for a full disk when the fsync is let through.
          return () => {
            fs.stalledSyncs++;
            return gate.then((outcome) =>
              outcome === 'enospc' || fs.full ? enospc() : target.datasync(),
            );
          };
        }
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }
}
