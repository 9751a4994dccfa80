import { admitLogService, formatIssues, parseSpec } from '@logsvc/operator-api';
import { checkConfigOverrides } from '../controller/config-check';

/** The parts of an admission.k8s.io/v1 AdmissionReview request the webhook reads. */
export interface AdmissionRequest {
  readonly uid: string;
  readonly operation?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly dryRun?: boolean;
  readonly object?: {
    metadata?: { name?: string; uid?: string; annotations?: Record<string, string> };
    spec?: unknown;
  };
  readonly oldObject?: { metadata?: { uid?: string }; spec?: unknown } | null;
}

export interface ReviewOutcome {
  /** The AdmissionReview to answer with. */
  readonly review: Record<string, unknown>;
  readonly request?: AdmissionRequest;
  /** Why it was refused; undefined when allowed. */
  readonly refused?: string;
}

/**
 * Decides an AdmissionReview for LogServices: create and update are checked by
 * admitLogService (schema, rules across fields, guarded and immutable fields); anything else
 * (delete, connect) is allowed. A malformed review throws (the server answers 400).
 */
export function reviewLogService(body: unknown): ReviewOutcome {
  const review = body as { apiVersion?: string; kind?: string; request?: AdmissionRequest };
  if (review?.kind !== 'AdmissionReview' || typeof review.request?.uid !== 'string')
    throw new Error('expected an AdmissionReview with request.uid');
  const request = review.request;
  const answer = (response: Record<string, unknown>) => ({
    apiVersion: review.apiVersion ?? 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    response: { uid: request.uid, ...response },
  });
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE')
    return { review: answer({ allowed: true }), request };
  const verdict = admitLogService(
    request.object?.spec,
    request.object?.metadata?.annotations,
    request.operation === 'UPDATE' ? (request.oldObject?.spec ?? {}) : undefined,
  );
  const parsed = verdict.allowed ? parseSpec(request.object?.spec) : undefined;
  const overrides =
    parsed?.ok === true
      ? checkConfigOverrides(request.name ?? request.object?.metadata?.name ?? 'logs', parsed.spec)
      : undefined;
  if (verdict.allowed && overrides === undefined)
    return { review: answer({ allowed: true }), request };
  const refused = verdict.allowed ? overrides! : formatIssues(verdict.issues);
  return {
    review: answer({
      allowed: false,
      status: { status: 'Failure', code: 422, reason: 'Invalid', message: refused },
    }),
    request,
    refused,
  };
}
