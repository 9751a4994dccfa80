import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** One entry of a directory as a listing needs it: files with their size and mtime. */
export type DirectoryEntry =
  | { readonly name: string; readonly kind: 'directory' }
  | {
      readonly name: string;
      readonly kind: 'file';
      readonly size: number;
      readonly modifiedAt: Date;
    };

interface CachedListing {
  readonly ino: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly entries: readonly DirectoryEntry[];
}

/**
 * A listing is kept only once its directory has not changed for this long. The kernel stamps
 * a directory's mtime from a coarse clock (a few ms per tick), so two changes in one tick leave
 * one mtime: a listing read just after the first would look current after the second. A change
 * made once this long has passed gets a later mtime, which the next stat sees.
 */
const SETTLED_NS = 2_000_000_000n;
/** At most this many directories, and entries over all of them, are kept (oldest use first out). */
const MAX_DIRECTORIES = 1024;
const MAX_ENTRIES = 200_000;

/**
 * Directory listings of a filesystem object store, each checked against one stat of its
 * directory before it is used again. An index table is listed by every query; this costs one
 * stat of its directory instead of a read of it and a stat of every file in it. It relies on
 * the store's writes: an object is written to a temporary file and renamed over its key, and
 * removed by unlink, each of which changes the directory's mtime; a file changed in place by
 * anything else is not seen until its directory changes.
 */
export class DirectoryListings {
  private readonly cached = new Map<string, CachedListing>();
  private entryCount = 0;

  /** The entries of `dir` (none when it does not exist), `skip` names left out. */
  async read(dir: string, skip: (name: string) => boolean): Promise<readonly DirectoryEntry[]> {
    let st;
    try {
      st = await fs.stat(dir, { bigint: true });
    } catch (err) {
      if (isMissing(err)) {
        this.forget(dir);
        return [];
      }
      throw err;
    }
    const hit = this.cached.get(dir);
    if (hit && hit.ino === st.ino && hit.mtimeNs === st.mtimeNs && hit.ctimeNs === st.ctimeNs) {
      // Most recently used last: eviction takes the first.
      this.cached.delete(dir);
      this.cached.set(dir, hit);
      return hit.entries;
    }
    this.forget(dir);
    const entries = await readEntries(dir, skip);
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    if (nowNs - st.mtimeNs > SETTLED_NS) {
      this.keep(dir, { ino: st.ino, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, entries });
    }
    return entries;
  }

  private keep(dir: string, listing: CachedListing): void {
    if (listing.entries.length > MAX_ENTRIES) return;
    this.cached.set(dir, listing);
    this.entryCount += listing.entries.length;
    for (const [oldest, old] of this.cached) {
      if (this.cached.size <= MAX_DIRECTORIES && this.entryCount <= MAX_ENTRIES) break;
      this.forget(oldest, old);
    }
  }

  private forget(dir: string, listing = this.cached.get(dir)): void {
    if (listing === undefined) return;
    this.cached.delete(dir);
    this.entryCount -= listing.entries.length;
  }
}

/** Reads a directory: its subdirectories, and its files with a stat each. */
async function readEntries(
  dir: string,
  skip: (name: string) => boolean,
): Promise<DirectoryEntry[]> {
  let dirents;
  try {
    dirents = await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
  const out: DirectoryEntry[] = [];
  for (const d of dirents) {
    if (skip(d.name)) continue;
    if (d.isDirectory()) {
      out.push({ name: d.name, kind: 'directory' });
    } else if (d.isFile()) {
      try {
        const st = await fs.stat(path.join(dir, d.name));
        out.push({ name: d.name, kind: 'file', size: st.size, modifiedAt: st.mtime });
      } catch (err) {
        // Removed since the directory was read.
        if (!isMissing(err)) throw err;
      }
    }
  }
  return out;
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
