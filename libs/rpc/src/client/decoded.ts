import { asLogsvcError } from '@logsvc/errors';

/** Decodes a response; one that does not decode is the server's fault (internal). */
export function decoded<T>(what: string, decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    throw asLogsvcError(err, 'internal', `malformed ${what} response: `);
  }
}
