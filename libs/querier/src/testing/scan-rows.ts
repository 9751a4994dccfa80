import type { EntryCursor } from '@logsvc/chunk';
import type { TestRow } from '@logsvc/ingester/testing';

/** One entry as the scan tests compare them. */
export type Row = TestRow;
export { rowArb, T } from '@logsvc/ingester/testing';

/** Every entry of a cursor that may have to wait for its chunks to be fetched. */
export async function drainAll(c: EntryCursor): Promise<Row[]> {
  const out: Row[] = [];
  for (;;) {
    if (c.next()) {
      out.push({ ts: c.timestampNs, line: c.line.toString(), sm: c.structuredMetadata });
      continue;
    }
    const more = c.wait?.();
    if (!more) return out;
    await more;
  }
}
