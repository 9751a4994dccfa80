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

/** Average raw line length of the generator's mix, to spread lines over a span. */
const MEAN_LINE_BYTES = 197;

/** A data set for the query benchmarks: `totalBytes` of lines spread evenly over a span. */
export interface SpreadData {
  readonly seed: number;
  readonly streams: number;
  readonly totalBytes: number;
  /** Time of the first line, and the span the lines of each stream are spaced over. */
  readonly startMs: number;
  readonly spanMs: number;
  readonly mixedStreams?: boolean;
}

/** Generator options that spread the data's lines evenly over its span, stream by stream. */
export function spreadGenerator(d: SpreadData): GeneratorOptions {
  const linesPerStream = Math.max(1, d.totalBytes / MEAN_LINE_BYTES / d.streams);
  return {
    seed: d.seed,
    streams: d.streams,
    startMs: d.startMs,
    spacingMs: d.spanMs / linesPerStream,
    structuredMetadata: false,
    linePool: 20_000,
    ...(d.mixedStreams === undefined ? {} : { mixedStreams: d.mixedStreams }),
  };
}

/** `totalBytes` of the generator's lines split over up to 4 clients, each owning its streams. */
export function clientPlans(
  generator: GeneratorOptions,
  totalBytes: number,
  streamsPerBatch = 10,
): ClientPlan[] {
  const clients = Math.min(4, generator.streams);
  return Array.from({ length: clients }, (_, client) => ({
    generator,
    client,
    clients,
    lineBytes: totalBytes / clients,
    streamsPerBatch,
    linesPerStream: 100,
  }));
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
