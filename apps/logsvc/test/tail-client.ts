import WebSocket from 'ws';

/** A tail WebSocket opened the way Grafana and logcli open it, with its messages queued. */
export interface TailClient {
  readonly socket: WebSocket;
  /** Parsed messages received so far. */
  readonly messages: unknown[];
  /** Raw text of the messages received so far. */
  readonly raw: string[];
  /** Resolves with the close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Waits until `predicate` holds over the messages (fails after `timeoutMs`). */
  waitFor(predicate: (messages: unknown[]) => boolean, timeoutMs?: number): Promise<void>;
}

export function tailUrl(base: string, path: string, params: Record<string, string>): string {
  return `${base.replace(/^http/, 'ws')}${path}?${new URLSearchParams(params).toString()}`;
}

export function openTail(url: string, headers: Record<string, string> = {}): Promise<TailClient> {
  const socket = new WebSocket(url, { headers });
  const messages: unknown[] = [];
  const raw: string[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    const text = String(data);
    raw.push(text);
    messages.push(JSON.parse(text));
    for (const w of waiters) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const client: TailClient = {
    socket,
    messages,
    raw,
    closed,
    waitFor: (predicate, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (!predicate(messages)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out; got ${JSON.stringify(messages).slice(0, 500)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => reject(Object.assign(new Error(body), { status: res.statusCode, body })));
    });
    socket.once('error', reject);
  });
}

/** An upgrade refused before the handshake: its status and body. */
export async function refusedTail(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  try {
    const client = await openTail(url, headers);
    client.socket.close();
  } catch (err) {
    const e = err as { status?: number; body?: string };
    if (e.status !== undefined) return { status: e.status, body: e.body ?? '' };
    throw err;
  }
  throw new Error('the tail was accepted');
}

interface V1Message {
  streams: { stream: Record<string, string>; values: [string, string][] }[];
  dropped_entries?: { timestamp: string; labels?: Record<string, string> }[];
}

/** Lines of v1 tail messages, in order. */
export function tailLines(messages: unknown[]): string[] {
  return (messages as V1Message[]).flatMap((m) =>
    m.streams.flatMap((s) => s.values.map((v) => v[1])),
  );
}

/** Dropped entries reported in v1 tail messages. */
export function droppedCount(messages: unknown[]): number {
  return (messages as V1Message[]).reduce((n, m) => n + (m.dropped_entries?.length ?? 0), 0);
}
