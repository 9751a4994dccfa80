import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type ClientPlan, type PreparedBody } from './batches';

interface WorkerMessage {
  client: number;
  bodies: Array<{ body: Uint8Array; lines: number; lineBytes: number }>;
}

/**
 * Prepares every client's bodies before the timed run, split over worker threads, so the
 * run itself spends no client CPU on generating or encoding.
 */
export async function prepareAll(plans: readonly ClientPlan[]): Promise<PreparedBody[][]> {
  const workers = Math.max(1, Math.min(availableParallelism(), plans.length));
  const groups: ClientPlan[][] = Array.from({ length: workers }, () => []);
  plans.forEach((plan, i) => groups[i % workers].push(plan));
  const result: PreparedBody[][] = plans.map(() => []);
  await Promise.all(
    groups.map(
      (group) =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(join(__dirname, 'prepare-worker.js'), { workerData: group });
          worker.on('message', (msg: WorkerMessage) => {
            result[msg.client] = msg.bodies.map((b) => ({
              body: Buffer.from(b.body.buffer, b.body.byteOffset, b.body.byteLength),
              lines: b.lines,
              lineBytes: b.lineBytes,
            }));
          });
          worker.once('error', reject);
          worker.once('exit', (code) =>
            code === 0 ? resolve() : reject(new Error(`prepare worker exited with ${code}`)),
          );
        }),
    ),
  );
  return result;
}
