import { LabelsCache, type KnownLabels } from './labels-cache';

/** Streams of a protobuf push whose label strings are looked up ahead together. */
export const READ_AHEAD_STREAMS = 32;

/** The tag byte of PushRequest.streams (field 1) and of StreamAdapter.labels (field 1). */
const LEN_FIELD_1 = (1 << 3) | 2;

/**
 * Looks up the label strings of the next streams of a protobuf push body before the decoder
 * reaches them. In a push of many streams, each stream's cached labels, and the memos later
 * stages keep on them, are cold in memory: one stream at a time, each waits for its own cache
 * misses. Found together, the misses of a group overlap (`LabelsCache.warm`), and the decoder
 * takes what was found instead of looking it up again.
 *
 * It only reads: where it cannot follow the body (malformed, labels not the first field of a
 * stream) the read-ahead stops, and the decoder's own reading reports errors as before.
 */
export class LabelsReadAhead {
  private readonly starts = new Int32Array(READ_AHEAD_STREAMS);
  private readonly found = new Array<KnownLabels | undefined>(READ_AHEAD_STREAMS).fill(undefined);
  private count = 0;
  private next = 0;
  /** Offset of the contents of the first stream message not read ahead yet. */
  private end = 0;
  /** Written so that the warming reads are kept. */
  warmth = 0;

  /** Whether the stream message whose contents start at `pos` was not read ahead yet. */
  needs(pos: number): boolean {
    return pos >= this.end;
  }

  /**
   * Reads ahead from the stream message whose contents are `body[pos, end)` and the ones after
   * it, up to `READ_AHEAD_STREAMS` of them, within `body[0, bodyEnd)`.
   */
  readAhead(body: Buffer, pos: number, end: number, bodyEnd: number): void {
    const cache = LabelsCache.shared;
    const at = { pos: 0 };
    let count = 0;
    let start = pos;
    for (;;) {
      // The stream's first field, when it is its labels.
      if (start < end && body[start] === LEN_FIELD_1) {
        at.pos = start + 1;
        const len = readLength(body, at, end);
        if (len >= 0 && at.pos + len <= end) {
          this.starts[count] = at.pos;
          this.found[count] = cache.peek(body, at.pos, at.pos + len);
          count++;
        }
      }
      // The next stream message.
      if (count === READ_AHEAD_STREAMS || end >= bodyEnd || body[end] !== LEN_FIELD_1) break;
      at.pos = end + 1;
      const len = readLength(body, at, bodyEnd);
      if (len < 0 || at.pos + len > bodyEnd) break;
      start = at.pos;
      end = at.pos + len;
    }
    // Read ahead again from the first stream message past the ones read.
    this.end = end;
    this.count = count;
    this.next = 0;
    this.warmth = LabelsCache.warm(this.found, count);
  }

  /** What was found ahead for the labels starting at `labelsStart`, if they were read ahead. */
  take(labelsStart: number): KnownLabels | undefined {
    while (this.next < this.count && this.starts[this.next] < labelsStart) {
      this.found[this.next++] = undefined;
    }
    if (this.next < this.count && this.starts[this.next] === labelsStart) {
      const known = this.found[this.next];
      this.found[this.next++] = undefined;
      return known;
    }
    return undefined;
  }
}

/** A varint length at `at.pos` (moved past it), or -1 when it is not one below 2^31. */
function readLength(body: Buffer, at: { pos: number }, end: number): number {
  let value = 0;
  for (let shift = 0; shift < 31; shift += 7) {
    if (at.pos >= end) return -1;
    const b = body[at.pos++];
    value |= (b & 0x7f) << shift;
    if (b < 0x80) return value >= 0 ? value : -1;
  }
  return -1;
}
