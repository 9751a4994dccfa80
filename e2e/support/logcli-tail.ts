import WebSocket from 'ws';

/** What `logcli query --tail` passes (pkg/logcli/client LiveTailQueryConn). */
export interface LogcliTailOptions {
  readonly query: string;
  /** `--limit`, 30 by default in logcli. */
  readonly limit?: number;
  /** `--from` / `--since`: logcli sends `start` in ns. */
  readonly startNs: bigint;
  /** `--delay-for` in seconds; left out when 0, as logcli does. */
  readonly delayForSeconds?: number;
}

interface TailMessage {
  streams: { stream: Record<string, string>; values: [string, string][] }[];
  dropped_entries?: { timestamp: string; labels?: Record<string, string> }[];
}

/**
 * A client that does what `logcli query --tail` does: the same URL (`/loki/api/v1/tail`, Go's
 * sorted query string with `limit`, `query`, `start`, and `delay_for` only when set), reads one
 * JSON message after another and prints each entry as a line of its default output
 * (`<RFC 3339 time> <labels> <line>`) as soon as it arrives; Ctrl-C sends a normal close.
 */
export class LogcliTail {
  /** Printed lines, in order. */
  readonly printed: string[] = [];
  /** What it logs about dropped entries. */
  readonly warnings: string[] = [];
  private readonly socket: WebSocket;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data) => this.print(JSON.parse(String(data)) as TailMessage));
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static url(address: string, o: LogcliTailOptions): string {
    const params = new URLSearchParams();
    if (o.delayForSeconds) params.set('delay_for', String(o.delayForSeconds));
    params.set('limit', String(o.limit ?? 30));
    params.set('query', o.query);
    params.set('start', String(o.startNs));
    return `${address.replace(/^http/, 'ws')}/loki/api/v1/tail?${params.toString()}`;
  }

  static open(address: string, o: LogcliTailOptions): Promise<LogcliTail> {
    const socket = new WebSocket(LogcliTail.url(address, o), {
      headers: { 'User-Agent': 'loki-logcli/3.4.6' },
    });
    const tail = new LogcliTail(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(tail));
      socket.once('error', reject);
    });
  }

  /** Ctrl-C: a normal close, as logcli sends it. */
  async interrupt(): Promise<void> {
    this.socket.close(1000, '');
    await this.closed;
  }

  private print(message: TailMessage): void {
    for (const s of message.streams) {
      const labels = `{${Object.entries(s.stream)
        .map(([k, v]) => `${k}="${v}"`)
        .join(', ')}}`;
      for (const [ts, line] of s.values) {
        const time = new Date(Number(BigInt(ts) / 1_000_000n))
          .toISOString()
          .replace(/\.\d+Z$/, 'Z');
        this.printed.push(`${time} ${labels} ${line.trim()}`);
      }
    }
    if (message.dropped_entries?.length) {
      this.warnings.push('Server dropped following entries due to slow client');
    }
  }
}
