import { describe, expect, it } from 'vitest';
import { ERROR_KINDS, HTTP_STATUS_OF_KIND } from './kinds';
import { LogsvcError, asLogsvcError, kindOf } from './logsvc-error';

class ThingMissing extends LogsvcError {
  constructor() {
    super('not_found', 'no such thing');
  }
}

describe('LogsvcError', () => {
  it('answers each kind with the status Loki uses for it', () => {
    const statuses = ERROR_KINDS.map((k) => new LogsvcError(k, 'x').httpStatus);
    expect(statuses).toEqual([400, 429, 422, 413, 404, 503, 504, 499, 500]);
    expect(Object.keys(HTTP_STATUS_OF_KIND)).toEqual([...ERROR_KINDS]);
  });

  it('keeps a per-tenant status over the kind (block_ingestion_status_code)', () => {
    expect(new LogsvcError('limit', 'blocked', { status: 260 }).httpStatus).toBe(260);
  });

  it('names subclasses after themselves and keeps their kind', () => {
    const sut = new ThingMissing();
    expect(sut.name).toBe('ThingMissing');
    expect(kindOf(sut)).toBe('not_found');
    expect(kindOf(new Error('disk on fire'))).toBe('internal');
  });

  it('wraps foreign errors with a kind and keeps LogsvcErrors unchanged', () => {
    const own = new ThingMissing();
    expect(asLogsvcError(own, 'bad_request')).toBe(own);
    const wrapped = asLogsvcError(new Error('bad gzip'), 'bad_request', 'decode: ');
    expect(wrapped.message).toBe('decode: bad gzip');
    expect(wrapped.httpStatus).toBe(400);
  });
});
