// Worker thread entry: prepares the bodies of the clients it is given and sends them back
// with their ArrayBuffers transferred (no copy).
import { parentPort, workerData } from 'node:worker_threads';
import { type ClientPlan, prepareClientBodies } from './batches';

const plans = workerData as ClientPlan[];
for (const plan of plans) {
  const bodies = prepareClientBodies(plan).map((b) => {
    // Own the bytes exclusively so the buffer can be transferred.
    const copy = new Uint8Array(b.body.length);
    copy.set(b.body);
    return { body: copy, lines: b.lines, lineBytes: b.lineBytes };
  });
  parentPort!.postMessage(
    { client: plan.client, bodies },
    bodies.map((b) => b.body.buffer),
  );
}
