import type { Labels } from '@logsvc/api';
import { DETECTED_LEVEL } from './level-detection';

/** Levels come from stream labels verbatim too: bound what is kept. */
const MAX_LEVELS = 1024;
const shared = new Map<string, Labels>();

/**
 * The frozen `[{detected_level: level}]` metadata of an entry that has no other metadata, one
 * array per level across requests: the WAL, the head block and the size accounting recognise
 * it by identity and skip re-measuring it per entry.
 */
export function levelOnlyMetadata(level: string): Labels {
  let labels = shared.get(level);
  if (labels === undefined) {
    if (shared.size >= MAX_LEVELS) shared.clear();
    labels = Object.freeze([Object.freeze({ name: DETECTED_LEVEL, value: level })]);
    shared.set(level, labels);
  }
  return labels;
}
