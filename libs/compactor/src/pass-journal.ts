// What a table pass decided, written before its merged index file: the chunks it removed and
// the chunks it added per stream. A crash after that file was written but before its inputs
// were deleted (or before the removed chunks were marked) leaves old refs beside new ones; the
// next pass of the table replays the record, so chunks merged or rewritten away are dropped
// (not kept forever beside their replacement) and get marked. Local to the compactor's
// working directory, like the markers.
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChunkRef, SeriesChunkRefs } from '@logsvc/storage';
import type { MarkedChunk } from './markers';

export interface PassRecord {
  readonly removed: readonly MarkedChunk[];
  /** Per stream, the chunks the pass added (merged or rewritten ones). */
  readonly added: readonly SeriesChunkRefs[];
}

type StoredRef = Omit<ChunkRef, 'fromNs' | 'throughNs'> & { fromNs: string; throughNs: string };

export class PassJournal {
  private readonly dir: string;

  constructor(workingDirectory: string) {
    this.dir = join(workingDirectory, 'compactor-passes');
  }

  private path(tenant: string, table: string): string {
    return join(this.dir, tenant, `${table}.json`);
  }

  /** The record of the table's last unfinished pass, or null. */
  async load(tenant: string, table: string): Promise<PassRecord | null> {
    let text: string;
    try {
      text = await readFile(this.path(tenant, table), 'utf8');
    } catch {
      return null;
    }
    const raw = JSON.parse(text) as {
      removed: MarkedChunk[];
      added: { labels: SeriesChunkRefs['labels']; fingerprint: string; chunks: StoredRef[] }[];
    };
    return {
      removed: raw.removed,
      added: raw.added.map((s) => ({
        ...s,
        chunks: s.chunks.map((c) => ({
          ...c,
          fromNs: BigInt(c.fromNs),
          throughNs: BigInt(c.throughNs),
        })),
      })),
    };
  }

  /** Durable (fsync'd, renamed into place) when it returns. */
  async save(tenant: string, table: string, record: PassRecord): Promise<void> {
    const file = this.path(tenant, table);
    await mkdir(join(this.dir, tenant), { recursive: true });
    const tmp = `${file}.tmp`;
    const body = JSON.stringify(record, (_, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    );
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(body);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  }

  async clear(tenant: string, table: string): Promise<void> {
    await rm(this.path(tenant, table), { force: true });
  }
}

/**
 * `series` with a record replayed: its removed chunks dropped and its added chunks put in
 * (a stream gone from every file comes back with them).
 */
export function replayPass(
  series: readonly SeriesChunkRefs[],
  record: PassRecord,
): SeriesChunkRefs[] {
  const removed = new Set(record.removed.map((c) => c.key));
  const byId = new Map<string, SeriesChunkRefs>();
  for (const s of series) byId.set(s.fingerprint + JSON.stringify(s.labels), s);
  for (const s of record.added) {
    const id = s.fingerprint + JSON.stringify(s.labels);
    const have = byId.get(id);
    byId.set(id, { ...(have ?? s), chunks: [...(have?.chunks ?? []), ...s.chunks] });
  }
  const out: SeriesChunkRefs[] = [];
  for (const s of byId.values()) {
    const chunks = s.chunks.filter((c) => !removed.has(c.key));
    if (chunks.length > 0) out.push({ ...s, chunks });
  }
  return out;
}
