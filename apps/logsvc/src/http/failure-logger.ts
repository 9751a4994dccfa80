import type { Logger } from 'pino';

/**
 * Logs a library's failure at a request: a 5xx LogsvcError (`expected`) as a warning, anything
 * else as an error.
 */
export function failureLogger(logger: Logger, message: string) {
  return (err: unknown, url: string, expected: boolean): void => {
    if (expected) logger.warn({ err, url }, message);
    else logger.error({ err, url }, message);
  };
}
