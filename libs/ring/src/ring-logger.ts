/** The logging the ring's long-running parts do (pino's `(obj, msg)` shape). */
export interface RingLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export const SILENT_RING_LOGGER: RingLogger = {
  info: () => undefined,
  warn: () => undefined,
};
