/**
 * Ends the process after `/ingester/shutdown?terminate=true`, through the same path as a
 * SIGTERM: the entry point's signal handler stops every service and exits 0. When nothing
 * handles SIGTERM (the server embedded in another program, as in tests), nothing happens and
 * `terminate` returns false.
 */
export class ProcessTerminator {
  terminate(): boolean {
    if (process.listenerCount('SIGTERM') === 0) return false;
    process.emit('SIGTERM', 'SIGTERM');
    return true;
  }
}
