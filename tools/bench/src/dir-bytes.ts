import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Bytes of every file under `dir` (recursively; symlinks not followed), leaving out entries
 * whose name is in `skip` at any depth. 0 for a directory that does not exist.
 */
export function dirBytes(dir: string, skip: ReadonlySet<string> = new Set()): number {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const e of entries) {
    if (skip.has(e.name)) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) total += dirBytes(path, skip);
    else if (e.isFile()) {
      try {
        total += statSync(path).size;
      } catch {
        // removed meanwhile (a compaction, a WAL segment)
      }
    }
  }
  return total;
}
