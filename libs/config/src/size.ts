// Byte sizes are accepted the way Loki's flagext.ByteSize (c2h5oh/datasize) accepts them:
// a number and an optional unit, units being powers of 1024 (`256KB` = 262144 = `256KiB`).

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

/** Parses a size such as `256KB`, `4MB`, `1GiB` or `1024` into bytes; undefined if it is not one. */
export function parseSize(text: string): number | undefined {
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

/** Formats bytes with the largest unit that divides them exactly: `256KB`, `100MB`, `1000B`. */
export function formatSize(bytes: number): string {
  if (bytes === 0) return '0B';
  for (const [unit, size] of FORMAT_UNITS) {
    if (bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return `${bytes}B`;
}
