const UNIT_SECONDS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
  d: 86400,
  w: 604800,
  y: 31536000,
};

/** Seconds in a duration the schema accepted (`90s`, `1h30m`, `0`). */
export function durationSeconds(text: string): number {
  if (text === '0') return 0;
  let total = 0;
  const re = /([0-9]+(?:\.[0-9]+)?)(ns|us|µs|ms|s|m|h|d|w|y)/gu;
  let consumed = 0;
  for (const m of text.matchAll(re)) {
    total += Number(m[1]) * UNIT_SECONDS[m[2]];
    consumed += m[0].length;
  }
  if (consumed !== text.length || consumed === 0) throw new Error(`not a duration: ${text}`);
  return total;
}
