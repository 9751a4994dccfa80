/** One request of the differential check, sent alike to logsvc and Loki. */
export interface DiffQuery {
  /** The API path (default `/loki/api/v1/query_range`). */
  readonly path?: string;
  /** The LogQL query, sent as `query`. */
  readonly query?: string;
  /** Further parameters; `start` and `end` default to the data's range. */
  readonly params?: Readonly<Record<string, string | number>>;
  /** Why the answers differ on purpose, when they do. */
  readonly known?: string;
  /** A push instead of a query, POSTed to `path` (default `/loki/api/v1/push`). */
  readonly push?: PushProbe;
  /** Ask as the push probes' tenant (what they stored) instead of the data's. */
  readonly pushTenant?: boolean;
  /** Further request headers (e.g. Loki's response encoding flags). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The HTTP method of a query (default GET). */
  readonly method?: 'GET' | 'DELETE';
  /** Milliseconds to wait before asking (e.g. for both rulers to load a posted group). */
  readonly waitMs?: number;
}

/** A push request sent alike to both servers, with the tenant of the pushes alone. */
export interface PushProbe {
  /** What the probe tries, for the report. */
  readonly name: string;
  /** The body, given the current time in nanoseconds (for timestamps relative to now). */
  readonly body: (nowNs: bigint) => string | Buffer;
  /** Default `application/json`. */
  readonly contentType?: string;
  readonly contentEncoding?: string;
}

/** A server's answer: its HTTP status and its body, parsed when it is JSON. */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

type Json = Record<string, unknown>;

/** A sample value as a number; `sameWithin` compares them with a tolerance. */
function sampleValue(v: unknown): number {
  return Number(v);
}

/** Equal, numbers within a relative 1e-9 (NaN equal to NaN). */
function sameWithin(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => sameWithin(x, b[i]));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => sameWithin((a as Json)[k], (b as Json)[k]));
  }
  return a === b;
}

function labelKey(labels: unknown): string {
  return JSON.stringify(
    Object.entries((labels ?? {}) as Json).sort(([a], [b]) => a.localeCompare(b)),
  );
}

function byKey<T extends { key: string }>(items: T[]): T[] {
  return items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The part of an error message both servers should agree on. A pipeline error names the first
 * failing series each server met, which depends on the order it read them in.
 */
function errorText(body: unknown): string {
  const text =
    typeof body === 'string'
      ? body
      : String((body as Json | null)?.message ?? (body as Json | null)?.error ?? '');
  return text.trim().replace(/ for series: '.*?'\.\n/s, " for series: '…'.\n");
}

function normalizeResult(type: string, result: unknown[]): unknown {
  const rows = result as Json[];
  switch (type) {
    case 'streams':
      return byKey(
        rows.map((s) => ({
          key: labelKey(s.stream),
          values: (s.values as unknown[][]).map((v) => v.slice(0, 3)),
        })),
      );
    case 'matrix':
      return byKey(
        rows.map((s) => ({
          key: labelKey(s.metric),
          values: (s.values as unknown[][]).map(([t, v]) => [t, sampleValue(v)]),
        })),
      );
    case 'vector':
      return byKey(
        rows.map((s) => {
          const [t, v] = s.value as unknown[];
          return { key: labelKey(s.metric), value: [t, sampleValue(v)] };
        }),
      );
    default:
      return result;
  }
}

/** An item as JSON, an object's keys in order (Loki writes a series' labels in map order). */
function sortedJson(x: unknown): string {
  return x !== null && typeof x === 'object' && !Array.isArray(x) ? labelKey(x) : JSON.stringify(x);
}

/** What a rule evaluation changes from run to run: when and how it last ran. */
const RULE_TIMING = ['lastEvaluation', 'evaluationTime', 'health', 'lastError', 'state', 'alerts'];

/** Prometheus' rules listing without the fields that depend on when the rulers ran. */
function withoutRuleTimings(data: Json): Json {
  const groups = (data.groups as Json[]).map((g) => {
    const rest: Json = { ...g };
    delete rest.lastEvaluation;
    delete rest.evaluationTime;
    rest.rules = ((g.rules ?? []) as Json[]).map((r) => {
      const rule: Json = { ...r };
      for (const k of RULE_TIMING) delete rule[k];
      return rule;
    });
    return rest;
  });
  return { ...data, groups };
}

/** Arrays whose order Loki leaves to Go map iteration, sorted; `stats` dropped. */
function normalizeObject(body: Json): unknown {
  const out: Json = { ...body };
  delete out.stats;
  const data = out.data as Json | null | undefined;
  if (data && typeof data === 'object' && Array.isArray(data.groups)) {
    out.data = withoutRuleTimings(data);
  }
  for (const key of ['fields', 'detectedLabels', 'values', 'data']) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map(sortedJson).sort();
  }
  return out;
}

/**
 * What two answers must share to count as the same: the status; for errors the message (the
 * series a pipeline error names aside); for query results the result type and the series,
 * sorted by labels, with values to 9 significant digits; for other answers the body without
 * `stats`, with the lists whose order Loki leaves to Go map iteration sorted.
 */
export function normalizeAnswer(answer: Answer): unknown {
  const { status, body } = answer;
  if (status !== 200 || body === null || typeof body !== 'object') {
    return { status, error: errorText(body) };
  }
  const data = (body as Json).data as Json | undefined;
  if (data && typeof data.resultType === 'string' && Array.isArray(data.result)) {
    return { status, type: data.resultType, result: normalizeResult(data.resultType, data.result) };
  }
  return { status, body: normalizeObject(body as Json) };
}

/** Where two normalized answers first differ, or null when they are the same. */
export function firstDifference(a: Answer, b: Answer): { left: string; right: string } | null {
  const left = normalizeAnswer(a) as Json;
  const right = normalizeAnswer(b) as Json;
  if (sameWithin(left, right)) return null;
  if (Array.isArray(left.result) && Array.isArray(right.result) && left.type === right.type) {
    const n = Math.max(left.result.length, right.result.length);
    for (let i = 0; i < n; i++) {
      if (!sameWithin(left.result[i] ?? null, right.result[i] ?? null)) {
        const l = JSON.stringify(left.result[i] ?? null);
        const r = JSON.stringify(right.result[i] ?? null);
        const count = `series ${i + 1} of ${left.result.length} / ${right.result.length}: `;
        return { left: count + l, right: count + r };
      }
    }
  }
  return { left: JSON.stringify(left), right: JSON.stringify(right) };
}
