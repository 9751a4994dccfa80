/**
 * Where a stream keeps its WAL series reference: the number its push records name it by, and
 * the epoch that number was defined in. The ingester's streams are these slots.
 */
export interface WalSeriesSlot {
  walRef: number;
  walEpoch: number;
}

/**
 * Series references of the writing WAL. A push record (type 6) names a stream by a number and
 * writes its label text only the first time in an epoch, as Loki's WAL writes a series record
 * once. An epoch ends where a record could lose the definition its later records rely on: at a
 * checkpoint (the segments before it are deleted) and after a failed write. Numbers are never
 * reused: they start above every number found on replay, so segments of earlier runs can be
 * read back with one table.
 */
export class SeriesRefs {
  private epoch = 0;
  private nextRef: number;
  /** Label text per number defined since the last checkpoint (undo decodes records with it). */
  private current = new Map<number, Buffer>();
  /** The numbers of the epoch before a checkpoint, while that checkpoint's records settle. */
  private previous: Map<number, Buffer> | null = null;

  constructor(firstRef = 0) {
    this.nextRef = firstRef;
  }

  /**
   * The stream's number for a record being encoded now, as the record writes it: `2 × ref + 1`
   * when the record must define it (write its label text after it), `2 × ref` when an earlier
   * record of this epoch did. A stream without a slot gets a new number each time.
   */
  wireRef(slot: WalSeriesSlot | undefined, labelsText: Buffer): number {
    if (slot !== undefined && slot.walEpoch === this.epoch) return 2 * slot.walRef;
    const ref = this.nextRef++;
    this.current.set(ref, labelsText);
    if (slot !== undefined) {
      slot.walRef = ref;
      slot.walEpoch = this.epoch;
    }
    return 2 * ref + 1;
  }

  /** Every later record defines its streams again (a write failed). */
  newEpoch(): void {
    this.epoch++;
  }

  /** A checkpoint starts: a new epoch, and the numbers so far kept until `dropPrevious`. */
  startCheckpoint(): void {
    this.newEpoch();
    // A checkpoint that failed before its records settled left its numbers here: keep them.
    if (this.previous !== null)
      for (const [ref, text] of this.previous) this.current.set(ref, text);
    this.previous = this.current;
    this.current = new Map();
  }

  /** Every record written before the checkpoint has settled. */
  dropPrevious(): void {
    this.previous = null;
  }

  /** The label text defined for a number (for undo), if it is still known. */
  labelsOf(ref: number): string | undefined {
    const text = this.current.get(ref) ?? this.previous?.get(ref);
    return text?.toString('utf8');
  }
}

/** Label text by series number, as a record decoder reads and defines them. */
export interface SeriesNames {
  get(ref: number): string | undefined;
  set(ref: number, labelsText: string): void;
}
