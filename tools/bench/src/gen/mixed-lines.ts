import { jsonLine, logfmtLine, nginxLine } from './line-formats';
import type { Prng } from './prng';
import type { TimeFormatter } from './time-format';
import { LEVELS } from './vocabulary';

/** Relative weights of debug, info, warn and error lines in a mixed stream. */
const LEVEL_WEIGHTS = [15, 60, 15, 10];
const LEVEL_TOTAL = LEVEL_WEIGHTS.reduce((a, b) => a + b, 0);

/**
 * One line of a mixed stream, as an agent ships a pod's output: the format (nginx access line,
 * JSON with a numeric `latency_ms`, or logfmt) and the level are drawn per line. The level is
 * in the line (JSON `level`, logfmt `level=`), never in the labels; nginx access lines carry
 * none, as real ones do.
 */
export function mixedLine(rng: Prng, time: TimeFormatter, ms: number): string {
  const format = rng.int(3);
  const level = LEVELS[rng.weighted(LEVEL_WEIGHTS, LEVEL_TOTAL)];
  if (format === 0) return nginxLine(rng, time, ms);
  if (format === 1) return jsonLine(rng, time, ms, level, 'latency_ms');
  return logfmtLine(rng, time, ms, level);
}
