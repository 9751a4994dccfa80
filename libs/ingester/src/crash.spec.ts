import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MemChunk } from '@logsvc/chunk';
import { DEFAULT_INGESTER_CONFIG } from './config';
import { Ingester } from './ingester';
import type { FlushedChunk } from './sink';

const LIBS = resolve(__dirname, '../..');
const ROOT = resolve(LIBS, '..');

/** Pushes through the library as fast as it can and prints the ids of acknowledged entries. */
const CHILD = `
import { parseLabels, EMPTY_LABELS } from '@logsvc/api';
import { DEFAULT_INGESTER_CONFIG, Ingester } from '@logsvc/ingester';

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
      line: Buffer.from('entry ' + id + ' ' + 'x'.repeat(id % 50)),
      structuredMetadata: EMPTY_LABELS,
    }));
    await ingester.push('tenant-' + (w % 2), { streams: [{ labels, entries }] });
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

/** Runs the child until it has acknowledged `minAcked` entries, then SIGKILLs it. */
async function runAndKill(walDir: string, minAcked: number): Promise<Set<number>> {
  const tsconfig = join(dir, 'tsconfig.json');
  await writeFile(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'commonjs',
        baseUrl: ROOT,
        paths: { '@logsvc/*': [`${LIBS}/*/src/index.ts`] },
      },
    }),
  );
  const script = join(dir, 'child.ts');
  await writeFile(script, CHILD);
  const child = spawn(process.execPath, ['--import', 'tsx', script, walDir], {
    cwd: ROOT,
    env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked = new Set<number>();
  let stderr = '';
  let pending = '';
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`child too slow: ${stderr}`)), 15_000);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => fail(new Error(`child exited with ${code}: ${stderr}`)));
    child.stdout.on('data', (d: Buffer) => {
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('ack ')) continue;
        for (const id of line.slice(4).split(',')) acked.add(Number(id));
      }
      if (acked.size >= minAcked) {
        clearTimeout(timer);
        child.kill('SIGKILL');
        done();
      }
    });
  });
  await exited;
  return acked;
}

it('keeps every acknowledged entry exactly once after kill -9 under write load', async () => {
  const walDir = join(dir, 'wal');
  const acked = await runAndKill(walDir, 6000);
  expect(acked.size).toBeGreaterThanOrEqual(6000);

  const stored: FlushedChunk[] = [];
  const sut = new Ingester({
    config: {
      ...DEFAULT_INGESTER_CONFIG,
      wal: { enabled: true, dir: walDir, checkpoint_duration: 0 },
    },
    sink: { putChunks: async (_t, chunks) => void stored.push(...chunks) },
    backgroundLoops: false,
    walLock: { heartbeatMs: 50, staleMs: 500 },
  });
  await sut.start();
  // Flush everything and count what the chunks hold: no query-time de-duplication hides copies.
  await sut.flushAll();
  const seen = new Map<number, number>();
  for (const c of stored) {
    const it = MemChunk.decode(c.data).iterator(c.fromNs, c.throughNs + 1n, 'forward');
    while (it.next()) {
      const id = Number(it.line.toString().split(' ')[1]);
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
  }
  const missing = [...acked].filter((id) => !seen.has(id));
  const doubled = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  expect(missing).toEqual([]);
  expect(doubled).toEqual([]);
  await sut.shutdown({ flush: false });
});
