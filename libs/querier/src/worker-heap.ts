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

let sized = false;

/**
 * Sizes the heaps of the worker threads started from now on. `--initial-old-space-size` is read
 * when an isolate is created, so the main thread's heap, which exists already, keeps its sizes;
 * the flag stays set for every later thread of the process (the OTLP decode threads too).
 */
export function sizeWorkerHeaps(): void {
  if (sized) return;
  sized = true;
  setFlagsFromString(`--initial-old-space-size=${WORKER_OLD_SPACE_MB}`);
}
