import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { replayedIds, runUntilKilled } from './testing/crash-run';

/**
 * Pushes through the library as fast as it can and prints the ids of acknowledged entries.
 * Odd workers push as the HTTP push path does for snappy protobuf: entries decoded from the
 * body and the body along, so their WAL records hold the body in place of the lines.
 */
const CHILD = `
import { parseLabels, EMPTY_LABELS, type PushRequest } from '@logsvc/api';
import { DEFAULT_INGESTER_CONFIG, Ingester } from '@logsvc/ingester';
import { decodePushBodyStreams, encodePushProtobuf } from '@logsvc/push';

const dir = process.argv[2];
const ingester = new Ingester({
  config: {
    ...DEFAULT_INGESTER_CONFIG,
    chunk_target_size: 4096,
    flush_check_period: 3_600_000,
    wal: { enabled: true, dir, checkpoint_duration: 40 },
  },
  sink: { putChunks: async () => {} },
  walSegmentSize: 32 * 1024,
  walLock: { heartbeatMs: 50 },
});

async function worker(w: number): Promise<void> {
  const labels = parseLabels('{worker="' + w + '"}');
  for (let n = 0; ; n++) {
    const ids: number[] = [];
    for (let k = 0; k < 8; k++) ids.push(w * 10_000_000 + n * 8 + k);
    const entries = ids.map((id) => ({
      timestampNs: 1_704_067_200_000_000_000n + BigInt(id % 10_000_000),
      line: Buffer.from('entry ' + id + ' ' + 'x'.repeat(id % 50) + ' level=info msg="request served" path=/api/v1/items'),
      structuredMetadata: EMPTY_LABELS,
    }));
    let request: PushRequest = { streams: [{ labels, entries }] };
    if (w % 2 === 1) {
      const decoded = await decodePushBodyStreams({
        body: encodePushProtobuf(request),
        contentType: 'application/x-protobuf',
        maxDecompressedBytes: 1 << 30,
      });
      const streams = [...decoded.streams].filter((s) => 'labels' in s);
      request = { streams, source: decoded.source } as PushRequest;
    }
    await ingester.push('tenant-' + (w % 2), request);
    process.stdout.write('ack ' + ids.join(',') + '\\n');
  }
}

ingester.start().then(() => {
  process.stdout.write('ready\\n');
  for (let w = 0; w < 6; w++) void worker(w);
});
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ingester-crash-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('keeps every acknowledged entry exactly once after kill -9 under write load', async () => {
  const walDir = join(dir, 'wal');
  const { acked } = await runUntilKilled({
    workDir: dir,
    source: CHILD,
    args: [walDir],
    minAcked: 6000,
  });
  expect(acked.size).toBeGreaterThanOrEqual(6000);

  const seen = await replayedIds(walDir, (line) => Number(line.split(' ')[1]));
  const missing = [...acked].filter((id) => !seen.has(id));
  const doubled = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  expect(missing).toEqual([]);
  expect(doubled).toEqual([]);
});
