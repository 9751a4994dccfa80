// The live cluster overview from the server's WebSocket (no polling): reconnects when it drops.
import {
  type ClusterOverview,
  OVERVIEW_SOCKET_PATH,
  type OverviewMessage,
} from '@logsvc/api/browser';
import { useEffect, useState } from 'react';

export type SocketState = 'connecting' | 'live' | 'reconnecting';

export function overviewSocketUrl(loc: Location = location): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${OVERVIEW_SOCKET_PATH}`;
}

export function useOverview(): { overview?: ClusterOverview; state: SocketState } {
  const [overview, setOverview] = useState<ClusterOverview>();
  const [state, setState] = useState<SocketState>('connecting');
  useEffect(() => {
    let socket: WebSocket | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let delay = 500;
    let stopped = false;
    const connect = () => {
      socket = new WebSocket(overviewSocketUrl());
      socket.onopen = () => {
        delay = 500;
        setState('live');
      };
      socket.onmessage = (e) => {
        const message = JSON.parse(String(e.data)) as OverviewMessage;
        if (message.event === 'overview') setOverview(message.data);
      };
      socket.onclose = () => {
        if (stopped) return;
        setState('reconnecting');
        retry = setTimeout(connect, delay);
        delay = Math.min(delay * 2, 10_000);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      socket?.close();
    };
  }, []);
  return { overview, state };
}
