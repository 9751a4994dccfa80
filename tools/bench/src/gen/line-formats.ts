import type { Prng } from './prng';
import type { TimeFormatter } from './time-format';
import {
  CALLERS,
  HTTP_METHODS,
  HTTP_METHOD_WEIGHTS,
  LOGGERS,
  type Level,
  MESSAGES,
  PATH_TEMPLATES,
  REFERERS,
  STATUS_CODES,
  STATUS_WEIGHTS,
  USER_AGENTS,
  WORDS,
} from './vocabulary';

export const LINE_FORMATS = ['nginx', 'json', 'logfmt'] as const;
export type LineFormat = (typeof LINE_FORMATS)[number];

const METHOD_TOTAL = HTTP_METHOD_WEIGHTS.reduce((a, b) => a + b, 0);
const STATUS_TOTAL = STATUS_WEIGHTS.reduce((a, b) => a + b, 0);

/** What one line is about; the formats render the same facts in their own syntax. */
interface Request {
  method: string;
  path: string;
  status: number;
  bytes: number;
  durationMs: number;
}

function randomPath(rng: Prng): string {
  const template = rng.pick(PATH_TEMPLATES);
  return template
    .replace('{id}', String(rng.range(1, 250_000)))
    .replace('{n}', String(rng.range(1, 40)))
    .replace('{word}', rng.pick(WORDS))
    .replace('{hex}', rng.hex(8));
}

function randomRequest(rng: Prng): Request {
  const status = STATUS_CODES[rng.weighted(STATUS_WEIGHTS, STATUS_TOTAL)];
  // Log-normal-ish latency: mostly a few ms, a long tail to seconds.
  const durationMs = Math.round(Math.exp(rng.next() * 4 + rng.next() * 3) * 100) / 100;
  return {
    method: HTTP_METHODS[rng.weighted(HTTP_METHOD_WEIGHTS, METHOD_TOTAL)],
    path: randomPath(rng),
    status,
    bytes: status === 204 || status === 304 ? 0 : rng.range(120, 48_000),
    durationMs,
  };
}

function clientIp(rng: Prng): string {
  return `10.${rng.int(256)}.${rng.int(256)}.${rng.range(1, 254)}`;
}

/** nginx's default `combined` format plus `rt=` (request time), as many sites configure it. */
export function nginxLine(rng: Prng, time: TimeFormatter, ms: number): string {
  const r = randomRequest(rng);
  return (
    `${clientIp(rng)} - - [${time.nginx(ms)}] "${r.method} ${r.path} HTTP/1.1" ${r.status} ` +
    `${r.bytes} "${rng.pick(REFERERS)}" "${rng.pick(USER_AGENTS)}" rt=${(r.durationMs / 1000).toFixed(3)}`
  );
}

/**
 * One JSON object per line, as structured application loggers (pino, zap, logback) write.
 * `latencyKey` names the request duration field (the mixed data set uses `latency_ms`).
 */
export function jsonLine(
  rng: Prng,
  time: TimeFormatter,
  ms: number,
  level: Level,
  latencyKey: 'duration_ms' | 'latency_ms' = 'duration_ms',
): string {
  const r = randomRequest(rng);
  return JSON.stringify({
    ts: time.iso(ms),
    level,
    logger: rng.pick(LOGGERS),
    msg: rng.pick(MESSAGES[level]),
    method: r.method,
    path: r.path,
    status: r.status,
    [latencyKey]: r.durationMs,
    user_id: `u-${rng.range(1, 90_000)}`,
    trace_id: rng.hex(32),
  });
}

/** logfmt key=value pairs, as Go services (go-kit, Loki itself) write them. */
export function logfmtLine(rng: Prng, time: TimeFormatter, ms: number, level: Level): string {
  const r = randomRequest(rng);
  return (
    `ts=${time.iso(ms)} level=${level} caller=${rng.pick(CALLERS)}:${rng.range(20, 900)} ` +
    `msg="${rng.pick(MESSAGES[level])}" method=${r.method} path=${r.path} status=${r.status} ` +
    `duration=${r.durationMs}ms bytes=${r.bytes} traceID=${rng.hex(16)}`
  );
}

export function renderLine(
  format: LineFormat,
  rng: Prng,
  time: TimeFormatter,
  ms: number,
  level: Level,
): string {
  switch (format) {
    case 'nginx':
      return nginxLine(rng, time, ms);
    case 'json':
      return jsonLine(rng, time, ms, level);
    case 'logfmt':
      return logfmtLine(rng, time, ms, level);
  }
}
