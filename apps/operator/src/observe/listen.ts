import type { Server } from 'node:net';

/** Starts `server` on `host:port` (all interfaces by default); rejects when it cannot. */
export function listen(server: Server, port: number, host = '0.0.0.0'): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Closes `server` and every connection it holds. */
export async function closeServer(server: Server & { closeAllConnections(): void }): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
