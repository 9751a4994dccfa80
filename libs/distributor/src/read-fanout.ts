import { LogsvcError } from '@logsvc/errors';
import type { InstanceDesc, ReplicationSet } from '@logsvc/ring';

/**
 * Asks every instance of a read set at once, as Loki's querier does (dskit `DoUntilQuorum`,
 * not zone-aware): resolves with the answers of the first `instances - maxErrors` instances
 * that answer, in the set's order (the merge's priority order); a slower one is not waited
 * for. Rejects as soon as more than `maxErrors` failed, with the first failure; failures
 * within the budget only go to `onFailure`. An empty set answers nothing.
 */
export function readFromReplicas<T>(
  replicas: ReplicationSet,
  read: (instance: InstanceDesc) => Promise<T>,
  onFailure: (instance: InstanceDesc, err: unknown) => void,
): Promise<T[]> {
  const { instances } = replicas;
  if (instances.length === 0) return Promise.resolve([]);
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
          resolve([...answers.entries()].sort(([a], [b]) => a - b).map(([, v]) => v));
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
