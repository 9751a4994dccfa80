import { encodePushProtobuf } from '@logsvc/push';
import { type GeneratorOptions, LogGenerator } from '../gen';

/** One ready-to-send push body and what it carries. */
export interface PreparedBody {
  readonly body: Buffer;
  readonly lines: number;
  readonly lineBytes: number;
}

export interface ClientPlan {
  readonly generator: GeneratorOptions;
  /** This client's index in [0, clients). Client c owns the streams i with i % clients = c. */
  readonly client: number;
  readonly clients: number;
  /** Stop once this many raw line bytes are prepared. */
  readonly lineBytes: number;
  readonly streamsPerBatch: number;
  readonly linesPerStream: number;
}

/**
 * The snappy protobuf bodies one client sends, in order. Each client owns a disjoint set of
 * streams (like one agent per host), so its entries arrive in timestamp order per stream.
 */
export function prepareClientBodies(plan: ClientPlan): PreparedBody[] {
  const gen = new LogGenerator(plan.generator);
  const owned: number[] = [];
  for (let i = plan.client; i < gen.streams.length; i += plan.clients) owned.push(i);
  if (owned.length === 0)
    throw new RangeError(`client ${plan.client} owns no stream: use streams ≥ clients`);
  const perBatch = Math.min(plan.streamsPerBatch, owned.length);
  const bodies: PreparedBody[] = [];
  let prepared = 0;
  let cursor = 0;
  while (prepared < plan.lineBytes) {
    const ids: number[] = [];
    for (let k = 0; k < perBatch; k++) ids.push(owned[(cursor + k) % owned.length]);
    cursor = (cursor + perBatch) % owned.length;
    const batch = gen.batch(ids, plan.linesPerStream);
    bodies.push({
      body: encodePushProtobuf(batch.request),
      lines: batch.lines,
      lineBytes: batch.lineBytes,
    });
    prepared += batch.lineBytes;
  }
  return bodies;
}
