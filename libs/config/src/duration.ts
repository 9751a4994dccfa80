// Durations are accepted the way Loki accepts them: Prometheus' model.Duration syntax
// (`1w`, `1d`, `1h30m`, `300ms`) and Go's time.Duration syntax (`1.5h`, `250us`).
// Results are milliseconds.

const PROM_UNITS: ReadonlyArray<readonly [string, number]> = [
  ['y', 365 * 24 * 3600_000],
  ['w', 7 * 24 * 3600_000],
  ['d', 24 * 3600_000],
  ['h', 3600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
];

const PROM_RE = /^(?:(\d+)y)?(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?(?:(\d+)ms)?$/;

const GO_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3600_000,
};
const GO_PART_RE = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Parses a duration string into milliseconds, or returns undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  if (s === '0') return 0;
  const prom = PROM_RE.exec(s);
  if (prom) {
    let total = 0;
    let any = false;
    for (let i = 0; i < PROM_UNITS.length; i++) {
      const part = prom[i + 1];
      if (part !== undefined) {
        any = true;
        total += Number(part) * PROM_UNITS[i][1];
      }
    }
    if (any) return total;
  }
  return parseGoDuration(s);
}

function parseGoDuration(s: string): number | undefined {
  GO_PART_RE.lastIndex = 0;
  let total = 0;
  let pos = 0;
  while (pos < s.length) {
    GO_PART_RE.lastIndex = pos;
    const m = GO_PART_RE.exec(s);
    if (!m) return undefined;
    total += Number(m[1]) * GO_UNITS[m[2]];
    pos = GO_PART_RE.lastIndex;
  }
  return Number.isFinite(total) ? total : undefined;
}

/** Formats milliseconds the way Prometheus prints a model.Duration: `1w`, `1h30m`, `0s`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (!Number.isInteger(ms)) return `${ms}ms`;
  let rest = ms;
  let out = '';
  for (const [unit, size] of PROM_UNITS) {
    if (rest >= size) {
      const n = Math.floor(rest / size);
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  return out;
}
