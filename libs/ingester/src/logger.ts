/** The part of a pino-style logger the ingester uses: `logger.warn({ fields }, 'message')`. */
export interface IngesterLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const SILENT_LOGGER: IngesterLogger = {
  info: () => {},
  warn: () => {},
  error: () => {},
};
