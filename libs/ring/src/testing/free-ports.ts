/**
 * Ports for test and benchmark child processes to listen on: free right now on 127.0.0.1,
 * distinct, below the kernel's ephemeral range, and in this Vitest worker's own slice of that
 * span (VITEST_POOL_ID). Ports from `listen(0)` come from the ephemeral range, the pool other
 * programs (the Kubernetes control plane script, the operator's tests) pick their "free" ports
 * from and listen on seconds later, so one port could be handed to two processes and the later
 * one die with EADDRINUSE; the per-worker slice keeps two e2e files running at once apart too.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 20_000;
const SLICES = 4;

/** The first port of `ip_local_port_range`; 32768 (Linux's default) where it cannot be read. */
function ephemeralStart(): number {
  try {
    const start = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0],
    );
    return Number.isInteger(start) && start > LOWEST + 1_000 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** `count` distinct ports, each free when picked (see the header). */
export async function freePorts(count: number): Promise<number[]> {
  const high = ephemeralStart();
  const pool = Number(process.env.VITEST_POOL_ID);
  const width = Math.floor((high - LOWEST) / SLICES);
  const [low, span] =
    Number.isInteger(pool) && pool >= 1
      ? [LOWEST + ((pool - 1) % SLICES) * width, width]
      : [LOWEST, high - LOWEST];
  const ports: number[] = [];
  for (let attempt = 0; ports.length < count && attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * span);
    if (!ports.includes(port) && (await listenable(port))) ports.push(port);
  }
  if (ports.length < count) throw new Error(`no ${count} free ports in ${low}-${low + span - 1}`);
  return ports;
}

/** One such port, for a child process to listen on. */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0];
}
