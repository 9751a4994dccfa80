import { totalmem } from 'node:os';
import { setFlagsFromString } from 'node:v8';

/**
 * The old-generation room, in MB, that query and scan worker threads start with.
 *
 * Every block a worker decodes is a fresh Buffer whose bytes live outside V8's heap, and V8
 * counts bytes allocated that way since the last full GC against the old generation's limit.
 * A worker's heap holds about 16 MB of objects, so its limit stayed a few tens of MB, and the
 * ≈ 30 MB of blocks a query reads on each worker started a full mark-compact almost every
 * query: 97–145 of them over 60 queries on the mixed data set, against 9–11 with this room.
 * The blocks die young and the scavenges free them; the room only bounds how much garbage a
 * worker may hold before a full GC (64 MB was not enough to change the count).
 */
export const WORKER_OLD_SPACE_MB = 128;

/** A worker's room is at most this share of the memory the process may use. */
const MEMORY_SHARE = 1 / 16;
const MIN_OLD_SPACE_MB = 16;

/** The memory the process may use: its cgroup's limit when it has one, else the machine's. */
function usableMemory(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  const total = totalmem();
  return limit > 0 && limit < total ? limit : total;
}

/**
 * The room for a process that may use `memoryBytes`: {@link WORKER_OLD_SPACE_MB}, less in a
 * small container so that a few workers' garbage cannot take it over (1/16 each, at least 16 MB).
 */
export function workerOldSpaceMb(memoryBytes: number = usableMemory()): number {
  const share = Math.floor((memoryBytes * MEMORY_SHARE) / 2 ** 20);
  return Math.max(MIN_OLD_SPACE_MB, Math.min(WORKER_OLD_SPACE_MB, share));
}

let sized = false;

/**
 * Sizes the heaps of the worker threads started from now on. `--initial-old-space-size` is read
 * when an isolate is created, so the main thread's heap, which exists already, keeps its sizes;
 * the flag stays set for every later thread of the process (the OTLP decode threads too).
 */
export function sizeWorkerHeaps(): void {
  if (sized) return;
  sized = true;
  setFlagsFromString(`--initial-old-space-size=${workerOldSpaceMb()}`);
}
