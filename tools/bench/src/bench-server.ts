/** What the benchmarks need of a server they started: logsvc (ServerProcess) or Loki. */
export interface BenchServer {
  /** Base URL, e.g. http://127.0.0.1:3100 */
  readonly url: string;
  readonly pid: number;
  readonly running: boolean;
  /** The tail of the server's stderr, for error messages. */
  stderr(): string;
  /** Peak RSS (VmHWM) seen so far, in bytes. */
  samplePeakRss(): number | undefined;
  /** Graceful stop, SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<number | null>;
  /** Stops the process if it still runs and removes a data directory it created. */
  dispose(): Promise<void>;
}

/** Which server a measurement is of. */
export type TargetName = 'logsvc' | 'loki' | 'victorialogs';
