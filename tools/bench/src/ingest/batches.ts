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
  /**
   * Streams shared by every client, as agents ship them (several hosts or sidecars writing
   * the same stream): client c sends the k-th line of each stream when k % clients = c, so
   * a stream's entries reach the server from every client, some out of order. When false
   * (the default), client c owns the streams i with i % clients = c and sends them in order.
   */
  readonly interleave?: boolean;
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

/**
 * `totalBytes` of the generator's lines split over up to 4 clients, each owning its streams,
 * or (`interleave`) each sending every stream's lines in turn.
 */
export function clientPlans(
  generator: GeneratorOptions,
  totalBytes: number,
  streamsPerBatch = 10,
  interleave = false,
): ClientPlan[] {
  const clients = Math.min(4, generator.streams);
  return Array.from({ length: clients }, (_, client) => ({
    generator,
    client,
    clients,
    lineBytes: totalBytes / clients,
    streamsPerBatch,
    linesPerStream: 100,
    interleave,
  }));
}

/**
 * The snappy protobuf bodies one client sends, in order. Each client owns a disjoint set of
 * streams (like one agent per host), so its entries arrive in timestamp order per stream;
 * with `interleave`, see `prepareInterleavedBodies`.
 */
export function prepareClientBodies(plan: ClientPlan): PreparedBody[] {
  if (plan.interleave === true && plan.clients > 1) return prepareInterleavedBodies(plan);
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

/**
 * The bodies of one client when every client sends every stream: all clients walk the
 * streams in the same batches and generate the same lines (each stream has its own PRNG), and
 * client c keeps the g-th line of each stream when g % clients = c. The clients' bodies together hold every
 * line once; a stream's consecutive lines come from different clients, so with clients
 * sending at once its entries reach the server interleaved and partly out of order.
 */
function prepareInterleavedBodies(plan: ClientPlan): PreparedBody[] {
  const gen = new LogGenerator(plan.generator);
  const streams = gen.streams.length;
  // As many streams per body as clients × streamsPerBatch, each with a clients-th of
  // linesPerStream: bodies carry as many lines as without interleaving, and every stream
  // advances by linesPerStream lines at a time, as it does then.
  const perBatch = Math.min(plan.streamsPerBatch * plan.clients, streams);
  // How many lines of each stream were generated so far: line g of a stream goes to client
  // g % clients, so the clients share every stream even with fewer lines per visit than clients.
  const generated = new Array<number>(streams).fill(0);
  const bodies: PreparedBody[] = [];
  let prepared = 0;
  let cursor = 0;
  while (prepared < plan.lineBytes) {
    const ids: number[] = [];
    for (let k = 0; k < perBatch; k++) ids.push((cursor + k) % streams);
    cursor = (cursor + perBatch) % streams;
    const batch = gen.batch(ids, plan.linesPerStream);
    let lines = 0;
    let lineBytes = 0;
    const kept = [];
    for (let j = 0; j < ids.length; j++) {
      const s = batch.request.streams[j];
      const first = generated[ids[j]];
      generated[ids[j]] = first + s.entries.length;
      const entries = s.entries.filter((_, k) => (first + k) % plan.clients === plan.client);
      if (entries.length === 0) continue;
      lines += entries.length;
      for (const e of entries) lineBytes += e.line.length;
      kept.push({ ...s, entries });
    }
    if (kept.length === 0) continue;
    bodies.push({ body: encodePushProtobuf({ streams: kept }), lines, lineBytes });
    prepared += lineBytes;
  }
  return bodies;
}
