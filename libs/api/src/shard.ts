/**
 * Query shards: a query's streams split into `of` disjoint parts by a hash of their labels, so
 * the parts can be read and evaluated apart and their answers combined. Every reader (the
 * store's index, the ingesters) must put a stream in the same shard, hence one hash here.
 */
import type { Labels } from './labels';

/** One shard of a query's streams: those whose label hash modulo `of` is `index`. */
export interface ShardRef {
  readonly index: number;
  readonly of: number;
}

/** Loki's shard text in the `shards` parameter: `<index>_of_<of>`. */
export function shardText(shard: ShardRef): string {
  return `${shard.index}_of_${shard.of}`;
}

/** Parses `<index>_of_<of>`; undefined when the text is not a valid shard. */
export function parseShard(text: string): ShardRef | undefined {
  const m = /^(\d{1,9})_of_(\d{1,9})$/.exec(text);
  if (m === null) return undefined;
  const index = Number(m[1]);
  const of = Number(m[2]);
  return of >= 1 && index < of ? { index, of } : undefined;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function fnvString(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  // A separator no label name or value holds, so `a=bc` and `ab=c` differ.
  h ^= 0xff;
  return Math.imul(h, FNV_PRIME);
}

/** FNV-1a (32 bits) over the label names and values, in their sorted order. */
export function labelsShardHash(labels: Labels): number {
  let h = FNV_OFFSET;
  for (const l of labels) h = fnvString(fnvString(h, l.name), l.value);
  return h >>> 0;
}

/** Whether a stream with these labels belongs to `shard` (every stream does when none). */
export function inShard(labels: Labels, shard: ShardRef | undefined): boolean {
  return shard === undefined || shard.of <= 1 || labelsShardHash(labels) % shard.of === shard.index;
}
