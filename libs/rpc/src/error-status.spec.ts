import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { ERROR_KINDS, LogsvcError } from '@logsvc/errors';
import { errorFromStatus, errorToStatus } from './error-status';

/** What a client receives for an error a handler threw. */
function overTheWire(err: unknown): LogsvcError {
  const st = errorToStatus(err);
  return errorFromStatus(Object.assign(new Error(st.details), st) as ServiceError, 'ingester:9095');
}

describe('LogsvcErrors over gRPC', () => {
  it('come back with the same kind, text and HTTP status for every kind', () => {
    for (const kind of ERROR_KINDS) {
      const back = overTheWire(new LogsvcError(kind, `went wrong: ${kind} "ü"\nsecond line`));
      expect([back.kind, back.message, back.httpStatus]).toEqual([
        kind,
        `went wrong: ${kind} "ü"\nsecond line`,
        new LogsvcError(kind, '').httpStatus,
      ]);
    }
  });

  it('keep a per-tenant HTTP status (block_ingestion_status_code)', () => {
    const back = overTheWire(new LogsvcError('limit', 'blocked', { status: 260 }));
    expect([back.kind, back.httpStatus]).toEqual(['limit', 260]);
  });

  it('use the gRPC codes Loki clients expect', () => {
    const code = (kind: LogsvcError['kind']) => errorToStatus(new LogsvcError(kind, 'x')).code;
    expect(code('bad_request')).toBe(status.INVALID_ARGUMENT);
    expect(code('limit')).toBe(status.RESOURCE_EXHAUSTED);
    expect(code('unavailable')).toBe(status.UNAVAILABLE);
    expect(code('internal')).toBe(status.INTERNAL);
    expect(errorToStatus(new Error('disk on fire'))).toMatchObject({
      code: status.INTERNAL,
      details: 'disk on fire',
    });
  });

  it('turn failures of the transport itself into unavailable or internal errors', () => {
    const failure = (code: status, details: string) =>
      errorFromStatus(
        Object.assign(new Error(details), { code, details, metadata: new Metadata() }),
        'ingester:9095',
      );
    expect(failure(status.UNAVAILABLE, 'No connection established')).toMatchObject({
      kind: 'unavailable',
      message: 'rpc to ingester:9095 failed: No connection established',
    });
    expect(failure(status.DEADLINE_EXCEEDED, 'Deadline exceeded').kind).toBe('unavailable');
    expect(failure(status.RESOURCE_EXHAUSTED, 'Received message larger than max').kind).toBe(
      'internal',
    );
  });
});
