import { type TailTicket, UI_TAIL_SOCKET_PATH, UI_TAIL_TICKET_PATH } from '@logsvc/api/browser';
import { useEffect, useRef, useState } from 'react';
import { getJson } from '../api/http';

interface TailMessage {
  streams?: Array<{ stream: Record<string, string>; values: Array<[string, string]> }>;
  dropped_entries?: Array<{ labels: Record<string, string>; timestamp: string }> | null;
}

interface Line {
  ts: string;
  labels: string;
  line: string;
}

/** Lines kept on screen; older ones scroll away. */
const MAX_LINES = 500;

/** Live tail over the tail WebSocket; pause keeps the socket and holds new lines until resume. */
export function LiveTail({ tenant, query }: { tenant: string; query: string }) {
  const [lines, setLines] = useState<Line[]>([]);
  const [paused, setPaused] = useState(false);
  const [state, setState] = useState('connecting');
  const held = useRef<Line[]>([]);
  const [heldCount, setHeldCount] = useState(0);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  useEffect(() => {
    const open = (ticket: string): WebSocket => {
      const params = new URLSearchParams({ query, ticket, limit: '100' });
      const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
      const ws = new WebSocket(`${scheme}//${location.host}${UI_TAIL_SOCKET_PATH}?${params}`);
      ws.onopen = () => setState('live');
      ws.onclose = (e) =>
        setState(e.code === 1000 || e.code === 1005 ? 'closed' : `closed (${e.code} ${e.reason})`);
      ws.onmessage = (e) => {
        const msg = JSON.parse(String(e.data)) as TailMessage;
        const fresh: Line[] = [];
        for (const s of msg.streams ?? []) {
          const labels = Object.entries(s.stream)
            .map(([k, v]) => `${k}="${v}"`)
            .join(', ');
          for (const [ts, line] of s.values) fresh.push({ ts, labels, line });
        }
        if (pausedRef.current) {
          held.current.push(...fresh);
          setHeldCount(held.current.length);
        } else setLines((old) => [...old, ...fresh].slice(-MAX_LINES));
      };
      return ws;
    };
    // A WebSocket cannot carry X-Scope-OrgID: a one-time ticket, asked for with the header,
    // names the tenant.
    let socket: WebSocket | undefined;
    let closed = false;
    getJson<TailTicket>(UI_TAIL_TICKET_PATH, { method: 'POST', tenant })
      .then(({ ticket }) => {
        if (!closed) socket = open(ticket);
      })
      .catch((err: Error) => setState(`closed (${err.message})`));
    return () => {
      closed = true;
      socket?.close();
    };
  }, [tenant, query]);
  const toggle = () => {
    if (paused) {
      const waiting = held.current;
      held.current = [];
      setHeldCount(0);
      setLines((old) => [...old, ...waiting].slice(-MAX_LINES));
    }
    setPaused(!paused);
  };
  return (
    <div>
      <p className="row">
        <span role="status">
          Tail: {state}
          {paused ? `, paused (${heldCount} held)` : ''}
        </span>
        <button type="button" onClick={toggle} aria-pressed={paused}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        <button type="button" onClick={() => setLines([])}>
          Clear
        </button>
      </p>
      <ol className="log-lines" aria-label="Tailed lines">
        {lines.map((l, i) => (
          <li key={i}>
            <time className="small">
              {new Date(Number(BigInt(l.ts) / 1_000_000n)).toLocaleTimeString()}
            </time>{' '}
            <span className="labels small">{`{${l.labels}}`}</span> {l.line}
          </li>
        ))}
      </ol>
    </div>
  );
}
