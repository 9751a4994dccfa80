// Worker thread entry of the QueryWorkerPool: opens its own chunk store from the settings it was
// started with and runs each pool query whole, several at once while they wait for the store
// or for memory snapshots from the main thread; a `cancel` aborts one.
import { parentPort, workerData } from 'node:worker_threads';
import type { MemoryFetch, MemorySnapshot } from '@logsvc/ingester';
import { createChunkStore } from '@logsvc/storage';
import { chunkDecoder } from '../chunk-decoder';
import type { PoolMessage, PoolReply, QueryWorkerData } from './pool-query';
import { PoolEngine } from './pool-engine';
import { rebuildError, serializeError } from './worker-errors';

const port = parentPort!;
const data = workerData as QueryWorkerData;
if (data.blockCacheMb !== undefined) chunkDecoder.configure(data.blockCacheMb);
const engine = new PoolEngine(createChunkStore(data.store));
const running = new Map<number, AbortController>();
/** Memory snapshots asked for and not answered yet, by request number. */
const awaiting = new Map<
  number,
  { resolve: (s: MemorySnapshot) => void; reject: (e: Error) => void }
>();
let nextReq = 1;

/** Query `id`'s way to the main thread's in-process ingester. */
function memoryOf(id: number): MemoryFetch {
  return (tenant, select) =>
    new Promise((resolve, reject) => {
      const req = nextReq++;
      awaiting.set(req, { resolve, reject });
      port.postMessage({ id, memory: { req, tenant, select } } satisfies PoolReply);
    });
}

async function run(id: number, message: Extract<PoolMessage, { type: 'run' }>): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  let reply: PoolReply;
  try {
    reply = { id, result: await engine.run(message.query, controller.signal, memoryOf(id)) };
  } catch (err) {
    reply = { id, error: serializeError(err) };
  } finally {
    running.delete(id);
  }
  try {
    port.postMessage(reply);
  } catch (err) {
    // Something in the answer cannot be cloned: a bug, answered as one.
    port.postMessage({ id, error: serializeError(err) } satisfies PoolReply);
  }
}

port.on('message', (message: PoolMessage) => {
  if (message.type === 'cancel') running.get(message.id)?.abort();
  else if (message.type === 'memory') {
    const waiter = awaiting.get(message.req);
    awaiting.delete(message.req);
    if ('snapshot' in message) waiter?.resolve(message.snapshot);
    else waiter?.reject(rebuildError(message.error));
  } else void run(message.id, message);
});
