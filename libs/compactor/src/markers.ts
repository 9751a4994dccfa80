// Chunks waiting to be deleted: marker files in `<working_directory>/retention/markers/`, each
// listing chunks no index refers to any more. The sweeper deletes a marker's chunks once the
// marker is older than `retention_delete_delay` (queries that read the index before the
// chunk left it can still fetch the chunk), then the marker. As in Loki, markers are local:
// a compactor that moves to another host leaves its pending chunks behind.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface MarkedChunk {
  readonly tenant: string;
  /** The object store holding the chunk. */
  readonly store: string;
  readonly key: string;
}

interface MarkerFile {
  readonly createdAtMs: number;
  readonly chunks: readonly MarkedChunk[];
}

export class ChunkMarkers {
  private readonly dir: string;

  constructor(workingDirectory: string) {
    this.dir = join(workingDirectory, 'retention', 'markers');
  }

  /** Records chunks to delete later; durable (fsync'd, renamed into place) when it returns. */
  async mark(chunks: readonly MarkedChunk[], nowMs: number): Promise<void> {
    if (chunks.length === 0) return;
    await mkdir(this.dir, { recursive: true });
    const name = `${nowMs}-${randomBytes(6).toString('hex')}`;
    const tmp = join(this.dir, `.${name}.tmp`);
    const body: MarkerFile = { createdAtMs: nowMs, chunks };
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(JSON.stringify(body));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, join(this.dir, `${name}.json`));
  }

  /** Markers pending now. */
  async pending(): Promise<number> {
    return (await this.files()).length;
  }

  /**
   * Deletes the chunks of every marker older than `delayMs`, then the marker. A failed chunk
   * delete keeps its marker for the next sweep. Returns the chunks deleted.
   */
  async sweep(
    nowMs: number,
    delayMs: number,
    deleteChunk: (c: MarkedChunk) => Promise<void>,
  ): Promise<MarkedChunk[]> {
    const done: MarkedChunk[] = [];
    for (const name of await this.files()) {
      const path = join(this.dir, name);
      let marker: MarkerFile;
      try {
        marker = JSON.parse(await readFile(path, 'utf8')) as MarkerFile;
      } catch {
        // A marker that cannot be read would block nothing but itself: drop it.
        await rm(path, { force: true });
        continue;
      }
      if (nowMs - marker.createdAtMs < delayMs) continue;
      for (const c of marker.chunks) {
        await deleteChunk(c);
        done.push(c);
      }
      await rm(path, { force: true });
    }
    return done;
  }

  private async files(): Promise<string[]> {
    try {
      await stat(this.dir);
    } catch {
      return [];
    }
    return (await readdir(this.dir)).filter((n) => n.endsWith('.json')).sort();
  }
}
