// Prometheus' model.Duration: `1d`, `5m`, `1h30m`, `500ms`, or `0`.
const UNITS: ReadonlyArray<readonly [string, number]> = [
  ['y', 365 * 24 * 3600_000],
  ['w', 7 * 24 * 3600_000],
  ['d', 24 * 3600_000],
  ['h', 3600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
];
const PATTERN = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;

/** Milliseconds, or undefined when the text is not a Prometheus duration (`not a valid duration string`). */
export function parseModelDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (text === '') return undefined;
  const m = PATTERN.exec(text);
  if (!m) return undefined;
  let ms = 0;
  for (let i = 0; i < UNITS.length; i++) {
    const part = m[i + 1];
    if (part !== undefined) ms += Number(part) * UNITS[i][1];
  }
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** model.Duration.String(): largest units first, `0s` for zero. */
export function formatModelDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = ms;
  let out = '';
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  return out;
}
