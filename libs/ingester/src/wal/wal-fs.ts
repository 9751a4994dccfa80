import { open, type FileHandle } from 'node:fs/promises';

/**
 * The file operations the WAL writes through: segment and checkpoint files are opened here,
 * so tests can hand out handles whose writes fail (ENOSPC) without filling a disk.
 */
export interface WalFs {
  open(path: string, flags: 'wx' | 'w'): Promise<FileHandle>;
}

export const NODE_WAL_FS: WalFs = { open: (path, flags) => open(path, flags) };
