// The read side of Loki's HTTP API as Grafana and logcli call it, for assertions in tests.

export interface StreamEntry {
  /** Nanosecond epoch as the server wrote it (a decimal string). */
  readonly ts: string;
  readonly line: string;
  /** With categorize-labels: the entry's structured metadata (and parsed labels). */
  readonly structuredMetadata?: Record<string, string>;
  readonly parsed?: Record<string, string>;
}

export interface ResultStream {
  readonly stream: Record<string, string>;
  readonly entries: StreamEntry[];
}

export interface QueryRangeParams {
  readonly query: string;
  /** Nanosecond epochs (logcli sends ns; Grafana too for log queries). */
  readonly start: bigint;
  readonly end: bigint;
  readonly limit: number;
  readonly direction?: 'forward' | 'backward';
  readonly tenant?: string;
  /** Send `X-Loki-Response-Encoding-Flags: categorize-labels`, as Grafana does. */
  readonly categorizeLabels?: boolean;
}

type RawValue =
  | [string, string]
  | [
      string,
      string,
      { structuredMetadata?: Record<string, string>; parsed?: Record<string, string> },
    ];

interface QueryRangeBody {
  status: string;
  data: {
    resultType: string;
    result: Array<{ stream: Record<string, string>; values: RawValue[] }>;
    encodingFlags?: string[];
  };
}

function headers(tenant?: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...(tenant ? { 'X-Scope-OrgID': tenant } : {}), ...extra };
}

/** A non-200 answer; 4xx ones are final (retrying the same request cannot help). */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function getJson<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status !== 200)
    throw new HttpStatusError(res.status, `GET ${url} → ${res.status}: ${text.trim()}`);
  return JSON.parse(text) as T;
}

/** `GET /loki/api/v1/query_range` for a log query; returns its streams. */
export async function queryRange(base: string, p: QueryRangeParams): Promise<ResultStream[]> {
  const qs = new URLSearchParams({
    query: p.query,
    start: p.start.toString(),
    end: p.end.toString(),
    limit: String(p.limit),
    direction: p.direction ?? 'backward',
  });
  const body = await getJson<QueryRangeBody>(`${base}/loki/api/v1/query_range?${qs}`, {
    headers: headers(
      p.tenant,
      p.categorizeLabels ? { 'X-Loki-Response-Encoding-Flags': 'categorize-labels' } : {},
    ),
  });
  if (body.status !== 'success' || body.data.resultType !== 'streams')
    throw new Error(`unexpected query_range answer: ${JSON.stringify(body).slice(0, 300)}`);
  return body.data.result.map((r) => ({
    stream: r.stream,
    entries: r.values.map((v) => ({
      ts: v[0],
      line: v[1],
      ...(v.length === 3
        ? { structuredMetadata: v[2].structuredMetadata, parsed: v[2].parsed }
        : {}),
    })),
  }));
}

/** `GET /loki/api/v1/labels` */
export async function labelNames(
  base: string,
  start: bigint,
  end: bigint,
  tenant?: string,
): Promise<string[]> {
  const qs = new URLSearchParams({ start: start.toString(), end: end.toString() });
  const body = await getJson<{ status: string; data?: string[] }>(
    `${base}/loki/api/v1/labels?${qs}`,
    {
      headers: headers(tenant),
    },
  );
  return body.data ?? [];
}

/** `GET /loki/api/v1/series?match[]=...` */
export async function series(
  base: string,
  match: string,
  start: bigint,
  end: bigint,
  tenant?: string,
): Promise<Array<Record<string, string>>> {
  const qs = new URLSearchParams({
    'match[]': match,
    start: start.toString(),
    end: end.toString(),
  });
  const body = await getJson<{ status: string; data?: Array<Record<string, string>> }>(
    `${base}/loki/api/v1/series?${qs}`,
    { headers: headers(tenant) },
  );
  return body.data ?? [];
}

/** One stream of Loki's JSON push body: its labels and `[ns, line]` or `[ns, line, metadata]`. */
export interface PushStream {
  readonly stream: Record<string, string>;
  readonly values: ReadonlyArray<readonly (string | Record<string, string>)[]>;
}

/** A push's answer: its status and body text. */
export interface PushAnswer {
  readonly status: number;
  readonly body: string;
}

/** `POST /loki/api/v1/push` with a JSON body, as Loki's JSON clients send it. */
export async function pushStreams(
  base: string,
  streams: readonly PushStream[],
  tenant?: string,
): Promise<PushAnswer> {
  const res = await fetch(`${base}/loki/api/v1/push`, {
    method: 'POST',
    headers: headers(tenant, { 'content-type': 'application/json' }),
    body: JSON.stringify({ streams }),
  });
  return { status: res.status, body: await res.text() };
}

/** `POST /loki/api/v1/push` of a JSON body: the status, or null when no answer came (a killed server). */
export async function postPushBody(base: string, body: string): Promise<number | null> {
  try {
    const res = await fetch(`${base}/loki/api/v1/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return res.status;
  } catch {
    return null;
  }
}

/** pushStreams, failing unless the server answers 204. */
export async function pushOk(
  base: string,
  streams: readonly PushStream[],
  tenant?: string,
): Promise<void> {
  const { status, body } = await pushStreams(base, streams, tenant);
  if (status !== 204) throw new Error(`push → ${status}: ${body}`);
}

export const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;
