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
  /**
   * Per epoch that still has records in flight (or is the current one): the label text of the
   * numbers it defined, which undo decodes a failed record with, and how many of its records
   * have not settled. A record only names numbers of its own epoch, so an epoch's table goes
   * once it is over and its last record settled: however often writes fail, the tables hold
   * only what records in flight can name.
   */
  private readonly epochs = new Map<number, { texts: Map<number, Buffer>; pending: number }>();

  constructor(firstRef = 0) {
    this.nextRef = firstRef;
  }

  /** The epoch records encoded now belong to. */
  get currentEpoch(): number {
    return this.epoch;
  }

  /**
   * The stream's number for a record being encoded now, as the record writes it: `2 × ref + 1`
   * when the record must define it (write its label text after it), `2 × ref` when an earlier
   * record of this epoch did. A stream without a slot gets a new number each time.
   */
  wireRef(slot: WalSeriesSlot | undefined, labelsText: Buffer): number {
    if (slot !== undefined && slot.walEpoch === this.epoch) return 2 * slot.walRef;
    const ref = this.nextRef++;
    this.table(this.epoch).texts.set(ref, labelsText);
    if (slot !== undefined) {
      slot.walRef = ref;
      slot.walEpoch = this.epoch;
    }
    return 2 * ref + 1;
  }

  /** A record of `epoch` was encoded and waits for its write. */
  recordPending(epoch: number): void {
    this.table(epoch).pending++;
  }

  /** A record of `epoch` was written or failed (and undone). */
  recordSettled(epoch: number): void {
    const t = this.epochs.get(epoch);
    if (t === undefined) return;
    t.pending--;
    if (t.pending <= 0 && epoch !== this.epoch) this.epochs.delete(epoch);
  }

  /**
   * Every later record defines its streams again: at a checkpoint (records after it land in
   * segments it keeps) and after a failed write (the failed record may have held a definition).
   */
  newEpoch(): void {
    const over = this.epochs.get(this.epoch);
    if (over !== undefined && over.pending <= 0) this.epochs.delete(this.epoch);
    this.epoch++;
  }

  /** The label text a record of `epoch` names by `ref`, while that record is in flight. */
  labelsOf(epoch: number, ref: number): string | undefined {
    return this.epochs.get(epoch)?.texts.get(ref)?.toString('utf8');
  }

  /** Epoch tables held (tests). */
  get heldEpochs(): number {
    return this.epochs.size;
  }

  private table(epoch: number): { texts: Map<number, Buffer>; pending: number } {
    let t = this.epochs.get(epoch);
    if (t === undefined) {
      t = { texts: new Map(), pending: 0 };
      this.epochs.set(epoch, t);
    }
    return t;
  }
}

/** Label text by series number, as a record decoder reads and defines them. */
export interface SeriesNames {
  get(ref: number): string | undefined;
  set(ref: number, labelsText: string): void;
}
