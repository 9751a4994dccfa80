import { open, type FileHandle } from 'node:fs/promises';
import type { WalFs } from './wal-fs';

/** A WAL file layer for tests whose writes fail with ENOSPC while `full` is set. */
export class FullDiskFs implements WalFs {
  full = false;

  async open(path: string, flags: 'wx' | 'w'): Promise<FileHandle> {
    const fh = await open(path, flags);
    const fail = (): boolean => this.full;
    const enospc = (): Promise<never> =>
      Promise.reject(
        Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
      );
    return new Proxy(fh, {
      get(target, prop) {
        if ((prop === 'writev' || prop === 'write' || prop === 'writeFile') && fail()) {
          return enospc;
        }
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }
}
