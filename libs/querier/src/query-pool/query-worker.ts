// Worker thread entry of the QueryWorkerPool: opens its own chunk store from the settings it was
// started with and runs each pool query whole, several at once while they wait for the store;
// a `cancel` aborts one.
import { parentPort, workerData } from 'node:worker_threads';
import { createChunkStore } from '@logsvc/storage';
import { chunkDecoder } from '../chunk-decoder';
import type { PoolMessage, PoolReply, QueryWorkerData } from './pool-query';
import { StoreOnlyEngine } from './store-only-engine';
import { serializeError } from './worker-errors';

const port = parentPort!;
const data = workerData as QueryWorkerData;
if (data.blockCacheMb !== undefined) chunkDecoder.configure(data.blockCacheMb);
const engine = new StoreOnlyEngine(createChunkStore(data.store));
const running = new Map<number, AbortController>();

async function run(id: number, message: Extract<PoolMessage, { type: 'run' }>): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  let reply: PoolReply;
  try {
    reply = { id, result: await engine.run(message.query, controller.signal) };
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
  else void run(message.id, message);
});
