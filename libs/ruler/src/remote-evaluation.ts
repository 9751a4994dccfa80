import { instantQueryForm, sampleValue } from '@logsvc/query-codec';
import { NO_METRICS, type RemoteEvaluationOutcome, type RulerMetrics } from './metrics';
import type { QueryFn, Sample } from './sample';

/** An HTTP request carried whole to a query frontend (Loki's httpgrpc.HTTPRequest). */
export interface RemoteRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** The frontend's answer (Loki's httpgrpc.HTTPResponse). */
export interface RemoteAnswer {
  readonly status: number;
  readonly body: Buffer;
}

/** Sends a request to a query frontend (in the app: gRPC `httpgrpc.HTTP/Handle`). */
export type RemoteTransport = (
  tenant: string,
  request: RemoteRequest,
  signal: AbortSignal,
) => Promise<RemoteAnswer>;

/** A tenant's `ruler_remote_evaluation_timeout` (0 taken as `query_timeout` by the caller) and size cap. */
export interface RemoteEvaluationLimits {
  readonly timeoutMs: number;
  /** `ruler_remote_evaluation_max_response_size`; 0: any size. */
  readonly maxResponseSize: number;
}

const QUERY_PATH = '/loki/api/v1/query';
/** Loki's body text in its errors is cut to this many bytes. */
const BODY_EXCERPT = 1024;

/**
 * Loki's remote rule evaluation (`ruler.evaluation.mode: remote`): each rule query is an
 * instant query POSTed to a query frontend's `/loki/api/v1/query`, whose JSON answer is read
 * back as a vector or a scalar. Errors carry Loki's texts.
 */
export function remoteQueryFn(
  transport: RemoteTransport,
  limits: (tenant: string) => RemoteEvaluationLimits,
  metrics: Pick<RulerMetrics, 'remoteEvaluated'> = NO_METRICS,
): QueryFn {
  return async (tenant, expr, tsMs) => {
    const { timeoutMs, maxResponseSize } = limits(tenant);
    const body = Buffer.from(instantQueryForm(expr, tsMs, 'forward'));
    const request: RemoteRequest = {
      method: 'POST',
      url: QUERY_PATH,
      headers: {
        'User-Agent': 'logsvc-ruler',
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': String(body.length),
        'X-Query-Tags': 'source=ruler',
        'X-Scope-OrgID': tenant,
      },
      body,
    };
    const signal = AbortSignal.timeout(timeoutMs);
    const report = (outcome: RemoteEvaluationOutcome): void =>
      metrics.remoteEvaluated(tenant, outcome);
    const started = performance.now();
    let answer: RemoteAnswer;
    try {
      answer = await transport(tenant, request, signal);
    } catch (err) {
      const seconds = (performance.now() - started) / 1000;
      if (signal.aborted) {
        report({ seconds, result: 'timeout' });
        throw new Error(
          `remote rule evaluation exceeded deadline of ${(timeoutMs / 1000).toFixed(6)}s ` +
            '(defined by ruler_remote_evaluation_timeout): context deadline exceeded',
        );
      }
      report({ seconds, result: 'error' });
      throw new Error(
        `rule evaluation failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const seconds = (performance.now() - started) / 1000;
    const bytes = answer.body.length;
    if (Math.floor(answer.status / 100) !== 2) {
      report({ seconds, bytes, result: 'upstream_error' });
      throw new Error(`unsuccessful/unexpected response - status code ${answer.status}`);
    }
    if (maxResponseSize > 0 && bytes >= maxResponseSize) {
      report({ seconds, bytes, result: 'max_size' });
      throw new Error(
        `${bytes} bytes exceeds response size limit of ${maxResponseSize} ` +
          '(defined by ruler_remote_evaluation_max_response_size)',
      );
    }
    // As Loki's: a 2xx answer within the size limit is a success before it is decoded.
    report({ seconds, bytes, result: 'success' });
    const samples = samplesOf(answer.body);
    report({ samples: samples.length });
    return samples;
  };
}

interface QueryAnswer {
  status?: unknown;
  data?: { resultType?: unknown; result?: unknown };
}

/** The samples of a `/query` answer: a vector's, or a scalar as one sample without labels. */
function samplesOf(body: Buffer): Sample[] {
  const excerpt = body.subarray(0, BODY_EXCERPT).toString();
  let answer: QueryAnswer;
  try {
    answer = JSON.parse(body.toString()) as QueryAnswer;
  } catch (err) {
    throw new Error(
      `unexpected body encoding, not valid JSON: ${(err as Error).message}, body: ${excerpt}`,
    );
  }
  if (answer.status !== 'success') {
    throw new Error(`query response error: status "${String(answer.status)}", body: ${excerpt}`);
  }
  const type = answer.data?.resultType;
  const result = answer.data?.result;
  if (type === 'vector' && Array.isArray(result)) {
    return result.map((s: { metric?: Record<string, string>; value?: [number, string] }) => ({
      labels: s.metric ?? {},
      value: sampleValue(s.value?.[1]),
    }));
  }
  if (type === 'scalar' && Array.isArray(result)) {
    return [{ labels: {}, value: sampleValue((result as [number, string])[1]) }];
  }
  throw new Error(`unsupported result type: "${String(type)}"`);
}
