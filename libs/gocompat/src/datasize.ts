/**
 * Byte sizes as Loki's config reads them: flagext.ByteSize, which uses c2h5oh/datasize
 * (`ParseString` and `ByteSize.String`). Units are powers of 1024: `256KB` = 262144 = `256KiB`.
 */

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
  t: 1024 ** 4,
  p: 1024 ** 5,
  e: 1024 ** 6,
};

const SIZE_RE = /^(\d+(?:\.\d+)?)\s*(?:([kmgtpe])(?:i?b)?|(b))?$/i;

/** `datasize.ParseString`: `256KB`, `4MB`, `1GiB`, `1024` → bytes; undefined if not a size. */
export function datasizeParseString(text: string): number | undefined {
  const m = SIZE_RE.exec(text.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? m[3] ?? '').toLowerCase();
  const bytes = Math.floor(Number(m[1]) * UNITS[unit]);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

const FORMAT_UNITS: ReadonlyArray<readonly [string, number]> = [
  ['EB', 1024 ** 6],
  ['PB', 1024 ** 5],
  ['TB', 1024 ** 4],
  ['GB', 1024 ** 3],
  ['MB', 1024 ** 2],
  ['KB', 1024],
];

/** `datasize.ByteSize.String()`: the largest unit that divides exactly: `256KB`, `1000B`. */
export function datasizeString(bytes: number): string {
  if (bytes === 0) return '0B';
  for (const [unit, size] of FORMAT_UNITS) {
    if (bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return `${bytes}B`;
}
