import type { Labels } from '@logsvc/api';
import type { EntryCursor } from '@logsvc/chunk';
import fc from 'fast-check';

/** One entry as the scan tests compare them. */
export interface Row {
  ts: bigint;
  line: string;
  sm: Labels;
}

export const T = 1_700_000_000_000_000_000n;

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

/** Small words so that needles hit some lines and miss others. */
const word = fc.constantFrom('GET', 'POST', 'err', 'ok', 'needle', 'a', 'é', '');

/** A row within a minute of T, sometimes with structured metadata. */
export const rowArb = fc.record({
  ts: fc.integer({ min: 0, max: 60 }).map((n) => T + BigInt(n)),
  line: fc.array(word, { maxLength: 4 }).map((ws) => ws.join(' ')),
  sm: fc.oneof(
    { weight: 3, arbitrary: fc.constant([] as Labels) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('a', 'b').map((v) => [{ name: 'trace_id', value: v }]),
    },
  ),
});
