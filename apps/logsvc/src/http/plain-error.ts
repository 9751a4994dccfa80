import { HttpException } from '@nestjs/common';

/**
 * An error answered as Loki answers errors: the status and a plain-text body. Loki's
 * `http.Error` replies end with a newline, its query-path errors do not, so the body is exact.
 */
export class PlainHttpError extends HttpException {
  constructor(
    status: number,
    readonly body: string,
  ) {
    super(body, status);
  }
}

/** `http.Error` style: the reason plus a trailing newline. */
export const httpError = (status: number, reason: string) =>
  new PlainHttpError(status, `${reason}\n`);
