import type { LabelPair } from '@logsvc/api';
import { stringSize } from './frame';

/**
 * The distinct structured-metadata pairs of one push record, numbered in order of first use.
 * Entries refer to pairs by number, so a pair every entry carries (`detected_level`) is
 * written once per record instead of once per entry.
 */
export class PairTable {
  readonly pairs: LabelPair[] = [];
  /** Bytes the pairs take in the record (without the leading count). */
  byteSize = 0;
  private readonly byName = new Map<string, Map<string, number>>();

  /** The pair's number, adding it when it is new. */
  id(pair: LabelPair): number {
    let values = this.byName.get(pair.name);
    if (values === undefined) {
      values = new Map();
      this.byName.set(pair.name, values);
    }
    let id = values.get(pair.value);
    if (id === undefined) {
      id = this.pairs.length;
      values.set(pair.value, id);
      this.pairs.push(pair);
      this.byteSize += stringSize(pair.name) + stringSize(pair.value);
    }
    return id;
  }
}
