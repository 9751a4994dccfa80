import { OVERVIEW_SOCKET_PATH, type OverviewMessage } from '@logsvc/api';
import { Inject } from '@nestjs/common';
import {
  type OnGatewayConnection,
  type OnGatewayDisconnect,
  WebSocketGateway,
} from '@nestjs/websockets';
import type { WebSocket } from 'ws';
import { OverviewService } from './overview.service';

/**
 * The live cluster overview over a WebSocket (`/ui/ws`): the whole overview on connect, then
 * again after every change (a service's state, a ring member, a peer's report) and every few
 * seconds, so the UI never polls. Clients send nothing.
 */
@WebSocketGateway({ path: OVERVIEW_SOCKET_PATH })
export class OverviewGateway implements OnGatewayConnection, OnGatewayDisconnect {
  private readonly clients = new Map<WebSocket, () => void>();

  constructor(@Inject(OverviewService) private readonly overview: OverviewService) {}

  handleConnection(client: WebSocket): void {
    const send = (data: ReturnType<OverviewService['overview']>): void => {
      if (client.readyState !== client.OPEN) return;
      const message: OverviewMessage = { event: 'overview', data };
      client.send(JSON.stringify(message));
    };
    this.clients.set(client, this.overview.subscribe(send));
    send(this.overview.overview());
  }

  handleDisconnect(client: WebSocket): void {
    this.clients.get(client)?.();
    this.clients.delete(client);
  }
}
