import WebSocket from 'ws';

/** What a tail session delivered: its entries in order, and the keys of its messages. */
export interface TailAnswer {
  /** `<stream labels JSON> <ts> <line>` per entry, sorted. */
  readonly entries: string[];
  /** The top-level keys of the messages, each set once, sorted. */
  readonly messageKeys: string[];
  /** The close code, or the error that ended the session. */
  readonly end: string;
}

function labelsJson(labels: unknown): string {
  return JSON.stringify(
    Object.entries((labels ?? {}) as Record<string, string>).sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Label categories with their labels sorted, so equal ones print alike. */
function categoriesText(categories: unknown): string {
  const c = (categories ?? {}) as Record<string, unknown>;
  return JSON.stringify(
    Object.keys(c)
      .sort()
      .map((k) => [k, labelsJson(c[k])]),
  );
}

/**
 * Opens `/loki/api/v1/tail` on `url`, calls `push` once the socket is open (or refused), and collects what
 * arrives for `listenMs`. Message boundaries depend on timing, so the entries are compared as a
 * sorted list and the messages by their keys.
 */
export async function tailSession(
  url: string,
  tenant: string,
  query: string,
  push: () => Promise<void>,
  listenMs: number,
  headers: Record<string, string> = {},
): Promise<TailAnswer> {
  const ws = new WebSocket(
    `${url.replace(/^http/, 'ws')}/loki/api/v1/tail?query=${encodeURIComponent(query)}`,
    { headers: { 'X-Scope-OrgID': tenant, ...headers } },
  );
  const entries: string[] = [];
  const keys = new Set<string>();
  let end = 'open';
  ws.on('message', (data: Buffer) => {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
    } catch {
      keys.add(`(not JSON: ${data.toString('utf8').slice(0, 80)})`);
      return;
    }
    for (const k of Object.keys(msg)) keys.add(`${k}:${msg[k] === null ? 'null' : typeof msg[k]}`);
    for (const s of (msg.streams ?? []) as { stream: unknown; values: unknown[][] }[]) {
      // A third element (label categories) is kept in the comparison.
      for (const v of s.values) {
        const parts = v.map((x) => (typeof x === 'string' ? x : categoriesText(x)));
        entries.push(`${labelsJson(s.stream)} ${parts.join(' ')}`);
      }
    }
  });
  // Only the server's close counts: the probe closes every session that is still open.
  let clientClosed = false;
  ws.on('close', (code: number, reason: Buffer) => {
    if (!clientClosed) end = `closed ${code} ${reason.toString('utf8')}`;
  });
  // With this listener ws neither closes nor errors on a refused upgrade: the session ends here.
  let refused: (() => void) | undefined;
  ws.on('unexpected-response', (req, res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      end = `HTTP ${res.statusCode ?? 0} ${Buffer.concat(chunks).toString('utf8').trim()}`;
      req.destroy();
      refused?.();
    });
  });
  ws.on('error', (err: Error) => {
    if (end === 'open') end = `error ${err.message}`;
  });
  await new Promise<void>((resolve) => {
    refused = resolve;
    ws.once('open', () => resolve());
    ws.once('close', () => resolve());
    ws.once('error', () => resolve());
  });
  if (ws.readyState === WebSocket.OPEN) {
    // Both servers start tailing a moment after the upgrade.
    await new Promise((r) => setTimeout(r, 500));
    await push();
    await new Promise((r) => setTimeout(r, listenMs));
  } else {
    // Pushed all the same: later sessions read these lines as past entries, on both servers
    // alike, however soon each ended this one.
    await push();
  }
  if (ws.readyState === WebSocket.OPEN) {
    clientClosed = true;
    ws.close();
  } else if (ws.readyState === WebSocket.CLOSING) {
    // The server's close frame is in: wait for the close event, which carries its code.
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      setTimeout(resolve, 2000);
    });
  }
  return { entries: entries.sort(), messageKeys: [...keys].sort(), end };
}
