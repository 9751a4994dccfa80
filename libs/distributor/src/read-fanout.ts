import { LogsvcError } from '@logsvc/errors';
import type { InstanceDesc, ReplicationSet } from '@logsvc/ring';

/**
 * Asks every instance of a read set at once, as Loki's querier does (dskit `DoUntilQuorum`):
 * resolves with the answers of the first `instances - maxErrors` instances that answer, in the
 * set's order (the merge's priority order); a slower one is not waited for. Rejects as soon as
 * more than `maxErrors` failed, with the first failure; failures within the budget only go to
 * `onFailure`. A zone-aware set (`maxUnavailableZones` > 0) counts whole zones instead (see
 * `readFromZones`). An empty set answers nothing.
 */
export function readFromReplicas<T>(
  replicas: ReplicationSet,
  read: (instance: InstanceDesc) => Promise<T>,
  onFailure: (instance: InstanceDesc, err: unknown) => void,
): Promise<T[]> {
  const { instances } = replicas;
  if (instances.length === 0) return Promise.resolve([]);
  if ((replicas.maxUnavailableZones ?? 0) > 0) return readFromZones(replicas, read, onFailure);
  const quorum = Math.max(1, instances.length - replicas.maxErrors);
  const maxErrors = instances.length - quorum;
  return new Promise((resolve, reject) => {
    const answers = new Map<number, T>();
    let failures = 0;
    let firstFailure: unknown;
    let settled = false;
    instances.forEach((instance, at) => {
      readOne(read, instance).then(
        (answer) => {
          if (settled) return;
          answers.set(at, answer);
          if (answers.size < quorum) return;
          settled = true;
          resolve(inSetOrder(answers));
        },
        (err: unknown) => {
          onFailure(instance, err);
          if (failures++ === 0) firstFailure = err;
          if (settled || failures <= maxErrors) return;
          settled = true;
          reject(readFailure(firstFailure));
        },
      );
    });
  });
}

/**
 * dskit's zone-aware `DoUntilQuorum`: resolves once every instance of all zones but
 * `maxUnavailableZones` answered, with the answers of those complete zones (in the set's
 * order); rejects, with the first failure, once failures reach more than
 * `maxUnavailableZones` zones. Any number of failures within those zones is tolerated.
 */
function readFromZones<T>(
  replicas: ReplicationSet,
  read: (instance: InstanceDesc) => Promise<T>,
  onFailure: (instance: InstanceDesc, err: unknown) => void,
): Promise<T[]> {
  const { instances } = replicas;
  const outstanding = new Map<string, number>();
  for (const i of instances) outstanding.set(i.zone, (outstanding.get(i.zone) ?? 0) + 1);
  const maxFailedZones = replicas.maxUnavailableZones ?? 0;
  const required = Math.max(1, outstanding.size - maxFailedZones);
  return new Promise((resolve, reject) => {
    const answers = new Map<number, T>();
    const failedZones = new Set<string>();
    const completeZones = new Set<string>();
    let firstFailure: unknown;
    let settled = false;
    instances.forEach((instance, at) => {
      readOne(read, instance).then(
        (answer) => {
          if (settled) return;
          answers.set(at, answer);
          const left = (outstanding.get(instance.zone) ?? 1) - 1;
          outstanding.set(instance.zone, left);
          if (left > 0 || failedZones.has(instance.zone)) return;
          completeZones.add(instance.zone);
          if (completeZones.size < required) return;
          settled = true;
          resolve(inSetOrder(answers, (at) => completeZones.has(instances[at].zone)));
        },
        (err: unknown) => {
          onFailure(instance, err);
          if (failedZones.size === 0) firstFailure = err;
          failedZones.add(instance.zone);
          if (settled || failedZones.size <= maxFailedZones) return;
          settled = true;
          reject(readFailure(firstFailure));
        },
      );
    });
  });
}

/** Answers by their instance's place in the set (the merge's priority order), those kept. */
function inSetOrder<T>(answers: Map<number, T>, keep: (at: number) => boolean = () => true): T[] {
  return [...answers.entries()]
    .filter(([at]) => keep(at))
    .sort(([a], [b]) => a - b)
    .map(([, v]) => v);
}

function readOne<T>(read: (instance: InstanceDesc) => Promise<T>, instance: InstanceDesc) {
  try {
    return read(instance);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** A failed read as the caller sees it: typed errors keep their kind, the rest is unavailable. */
function readFailure(err: unknown): LogsvcError {
  if (err instanceof LogsvcError && err.kind !== 'internal') return err;
  const text = err instanceof Error ? err.message : String(err);
  return new LogsvcError('unavailable', `failed to read from ingesters: ${text}`, { cause: err });
}
