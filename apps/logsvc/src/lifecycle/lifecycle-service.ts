/**
 * A component's service, run the way dskit runs services: New → Starting → Running →
 * Stopping → Terminated, or Failed from any of the middle states.
 */
export interface LifecycleService {
  /** Name shown by `/services`; the component or internal module name (`ingester`, `server`). */
  readonly serviceName: string;
  /** Prepares the service (open files, replay the WAL...). The service is Running once it resolves. */
  starting?(): Promise<void>;
  /**
   * Long-running work, started once Running. Should return when `signal` aborts. If it rejects,
   * the service is Failed; if it returns on its own, the service stops.
   */
  running?(signal: AbortSignal): Promise<void>;
  /** Releases what starting() took (flush, close). Called once, after running() has returned. */
  stopping?(): Promise<void>;
}
