import { labelsToString, type PushRequest } from '@logsvc/api';
import { LogsvcError } from '@logsvc/errors';
import type { IngestError, IngesterClient, IngesterLogger, PushOutcome } from '@logsvc/ingester';
import type { InstanceDesc } from '@logsvc/ring';
import type { Placement } from './placement';

/** What the replication needs of a logger: failed replicas are only worth a warning. */
export type ReplicaLogger = Pick<IngesterLogger, 'warn'>;

/** Reaches one ingester of the ring. */
export type IngesterClientFor = (instance: InstanceDesc) => IngesterClient;

const NOTHING_STORED: PushOutcome = { appended: 0, appendedBytes: 0, duplicates: 0, errors: [] };

/**
 * Sends each placement's streams to all its replicas at once and settles as Loki's distributor
 * (pushTracker): resolves as soon as every placement has a quorum of acknowledgements
 * (`instances - maxErrors`), rejects as soon as one has more than `maxErrors` failures. Calls
 * still running then go on in the background; their failures are only logged.
 *
 * The outcome counts each stream once: per placement, the first replica answer to arrive (the
 * first of its quorum) gives the counts and the per-stream refusals; the other replicas hold
 * the same streams and, when consistent, answered the same.
 */
export function replicatePush(
  tenant: string,
  placements: readonly Placement[],
  clientFor: IngesterClientFor,
  logger: ReplicaLogger,
): Promise<PushOutcome> {
  if (placements.length === 0) return Promise.resolve(NOTHING_STORED);
  return new Promise((resolve, reject) => {
    const trackers = placements.map((p) => new PlacementTracker(p));
    let waiting = trackers.length;
    let settled = false;
    for (const tracker of trackers) {
      const request: PushRequest = { streams: tracker.placement.streams };
      for (const instance of tracker.placement.replicas.instances) {
        pushTo(clientFor, instance, tenant, request).then(
          (outcome) => {
            if (!tracker.succeeded(outcome) || --waiting > 0 || settled) return;
            settled = true;
            resolve(sumOutcomes(trackers));
          },
          (err: unknown) => {
            logger.warn(
              { tenant, ingester: instance.id, addr: instance.addr, err: messageOf(err) },
              settled
                ? 'push to ingester failed after the push was answered'
                : 'push to ingester failed',
            );
            if (!tracker.failed(err) || settled) return;
            settled = true;
            reject(tracker.failure());
          },
        );
      }
    }
  });
}

/** One replica's push; a client that throws instead of rejecting fails the same way. */
function pushTo(
  clientFor: IngesterClientFor,
  instance: InstanceDesc,
  tenant: string,
  request: PushRequest,
): Promise<PushOutcome> {
  try {
    return clientFor(instance).push(tenant, request);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** Acknowledgements and failures of one placement's replicas. */
class PlacementTracker {
  private successes = 0;
  private failures = 0;
  /** The first acknowledgement: the placement's answer. */
  answer: PushOutcome | undefined;
  private firstFailure: unknown;
  /** The first whole-request 4xx a replica answered, given as is when quorum fails. */
  private firstClientError: LogsvcError | undefined;
  private readonly quorum: number;
  private readonly maxErrors: number;

  constructor(readonly placement: Placement) {
    const { instances, maxErrors } = placement.replicas;
    // At least one acknowledgement, whatever error budget the ring gives.
    this.quorum = Math.max(1, instances.length - maxErrors);
    this.maxErrors = instances.length - this.quorum;
  }

  /** Counts an acknowledgement; true when it is the one that makes the quorum. */
  succeeded(outcome: PushOutcome): boolean {
    this.answer ??= outcome;
    return ++this.successes === this.quorum;
  }

  /** Counts a failure; true when it is the one that makes the quorum unreachable. */
  failed(err: unknown): boolean {
    if (this.failures === 0) this.firstFailure = err;
    if (this.firstClientError === undefined && isClientError(err)) this.firstClientError = err;
    return ++this.failures === this.maxErrors + 1;
  }

  /** Why the placement's streams are not stored. */
  failure(): LogsvcError {
    if (this.firstClientError !== undefined) return this.firstClientError;
    const { instances } = this.placement.replicas;
    const first = this.placement.streams[0];
    const stream = first.labelsText ?? labelsToString(first.labels);
    return new LogsvcError(
      'unavailable',
      `failed to push to ingesters: ${this.failures} of ${instances.length} replicas of stream ` +
        `${stream} failed, at most ${this.maxErrors} may: ${messageOf(this.firstFailure)}`,
      { cause: this.firstFailure },
    );
  }
}

function isClientError(err: unknown): err is LogsvcError {
  return err instanceof LogsvcError && err.httpStatus >= 400 && err.httpStatus < 500;
}

function sumOutcomes(trackers: readonly PlacementTracker[]): PushOutcome {
  let appended = 0;
  let appendedBytes = 0;
  let duplicates = 0;
  const errors: IngestError[] = [];
  for (const { answer } of trackers) {
    if (answer === undefined) continue; // unreachable: every placement reached its quorum
    appended += answer.appended;
    appendedBytes += answer.appendedBytes;
    duplicates += answer.duplicates;
    errors.push(...answer.errors);
  }
  return { appended, appendedBytes, duplicates, errors };
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
