import { Agent, request } from 'node:http';
import type { PreparedBody } from './batches';

export interface LoadOptions {
  /** Base URL of the server, e.g. http://127.0.0.1:3100 */
  readonly url: string;
  /** Stop sending new requests after this many ms. */
  readonly durationMs: number;
  /** Per-request timeout in ms. */
  readonly requestTimeoutMs?: number;
  /** Sent as X-Scope-OrgID when set. */
  readonly tenant?: string;
  /** The push path (default Loki's `/loki/api/v1/push`). */
  readonly path?: string;
}

export interface LoadResult {
  readonly elapsedMs: number;
  readonly requests: number;
  readonly acceptedRequests: number;
  readonly acceptedLines: number;
  readonly acceptedLineBytes: number;
  /** Requests answered with anything but 204, by status ("error" for transport failures). */
  readonly failures: Record<string, number>;
  readonly firstFailure?: string;
  /** Whether every client ran out of prepared bodies before the deadline. */
  readonly exhausted: boolean;
}

interface Reply {
  status: number;
  text: string;
}

function post(agent: Agent, url: URL, body: Buffer, opts: LoadOptions): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/x-protobuf',
          'content-length': body.length,
          ...(opts.tenant ? { 'x-scope-orgid': opts.tenant } : {}),
        },
        timeout: opts.requestTimeoutMs ?? 30_000,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Runs one client per entry of `perClient`, each sending its bodies one after another
 * (one request in flight per client, like a Promtail or an agent), until the deadline or
 * until its bodies run out. Counts only what the server acknowledged with 204.
 */
export async function runLoad(
  perClient: readonly (readonly PreparedBody[])[],
  opts: LoadOptions,
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: perClient.length });
  const url = new URL(opts.path ?? '/loki/api/v1/push', opts.url);
  const failures: Record<string, number> = {};
  let firstFailure: string | undefined;
  let requests = 0;
  let acceptedRequests = 0;
  let acceptedLines = 0;
  let acceptedLineBytes = 0;
  let exhaustedClients = 0;
  const start = performance.now();
  const deadline = start + opts.durationMs;
  let lastDone = start;

  const client = async (bodies: readonly PreparedBody[]) => {
    for (const b of bodies) {
      if (performance.now() >= deadline) return;
      requests++;
      let reply: Reply;
      try {
        reply = await post(agent, url, b.body, opts);
      } catch (err) {
        failures.error = (failures.error ?? 0) + 1;
        firstFailure ??= (err as Error).message;
        continue;
      }
      lastDone = performance.now();
      if (reply.status === 204 || reply.status === 200) {
        acceptedRequests++;
        acceptedLines += b.lines;
        acceptedLineBytes += b.lineBytes;
      } else {
        failures[reply.status] = (failures[reply.status] ?? 0) + 1;
        firstFailure ??= `${reply.status} ${reply.text.trim()}`;
      }
    }
    exhaustedClients++;
  };
  try {
    await Promise.all(perClient.map(client));
  } finally {
    agent.destroy();
  }
  return {
    elapsedMs: lastDone - start,
    requests,
    acceptedRequests,
    acceptedLines,
    acceptedLineBytes,
    failures,
    firstFailure,
    exhausted: exhaustedClients === perClient.length,
  };
}
