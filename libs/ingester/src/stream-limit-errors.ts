import { IngestError } from './errors';

/** Which stream limit refused a new stream. */
export type StreamLimitKind = 'tenant' | 'global';

/**
 * Streams a push could not create, gathered into one refusal: Loki answers a push with the
 * last stream's error only, so one error (the last stream's text, everything's counts) is
 * what a client sees, at the cost of one object however many streams were refused.
 */
export class StreamLimitRefusals {
  private streams = 0;
  private entries = 0;
  private bytes = 0;
  private lastText = '';
  private lastKind: StreamLimitKind = 'tenant';

  constructor(private readonly tenant: string) {}

  get size(): number {
    return this.streams;
  }

  add(kind: StreamLimitKind, labelsText: string, entries: number, bytes: number): void {
    this.streams++;
    this.entries += entries;
    this.bytes += bytes;
    this.lastText = labelsText;
    this.lastKind = kind;
  }

  /** The one error for all refused streams, or undefined when none was refused. */
  error(): IngestError | undefined {
    if (this.streams === 0) return undefined;
    return new IngestError(
      'limit',
      'stream_limit',
      this.lastKind === 'tenant'
        ? tenantLimitMessage(this.tenant, this.lastText)
        : globalLimitMessage(this.tenant, this.lastText),
      this.entries,
      this.bytes,
    );
  }
}

function tenantLimitMessage(tenant: string, labelsText: string): string {
  return `Maximum active stream limit exceeded when trying to create stream ${labelsText}, reduce the number of active streams (reduce labels or reduce label values), or contact your Loki administrator to see if the limit can be increased, user: '${tenant}'`;
}

function globalLimitMessage(tenant: string, labelsText: string): string {
  return `Maximum active stream limit of this ingester (all tenants) exceeded when trying to create stream ${labelsText}, user: '${tenant}'; the limit is set by -ingester.max-global-streams`;
}
