import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MemChunk } from '@logsvc/chunk';
import { DEFAULT_INGESTER_CONFIG } from '../config';
import { Ingester } from '../ingester';
import type { FlushedChunk } from '../sink';

/** The libs folder: a child's `@logsvc/<name>` resolves to `<LIBS>/<name>/src/index.ts`. */
export const LIBS = resolve(__dirname, '../../..');
const ROOT = resolve(LIBS, '..');

export interface CrashRun {
  /** Ids the child reported on `ack <id>,<id>,...` lines before it was killed. */
  readonly acked: Set<number>;
  /** How many of its other output lines started with each first word. */
  readonly said: ReadonlyMap<string, number>;
}

/**
 * Runs TypeScript `source` (through tsx, `@logsvc/*` resolved to the libraries' sources) as a
 * child process with `args`, and kills it with SIGKILL once it has acknowledged `minAcked`
 * ids: a crash at a moment the child does not choose. `workDir` holds the script.
 */
export async function runUntilKilled(options: {
  readonly workDir: string;
  readonly source: string;
  readonly args: readonly string[];
  readonly minAcked: number;
  readonly timeoutMs?: number;
}): Promise<CrashRun> {
  const { workDir, source, args, minAcked } = options;
  const tsconfig = join(workDir, 'tsconfig.json');
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
  const script = join(workDir, 'child.ts');
  await writeFile(script, source);
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked = new Set<number>();
  const said = new Map<string, number>();
  let stderr = '';
  let pending = '';
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  await new Promise<void>((done, fail) => {
    const timeoutMs = options.timeoutMs ?? 15_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`child too slow: ${acked.size} acknowledged in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => fail(new Error(`child exited with ${code}: ${stderr}`)));
    child.stdout.on('data', (d: Buffer) => {
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('ack ')) {
          for (const id of line.slice(4).split(',')) acked.add(Number(id));
        } else {
          const word = line.split(' ')[0];
          said.set(word, (said.get(word) ?? 0) + 1);
        }
      }
      if (acked.size >= minAcked) {
        clearTimeout(timer);
        child.kill('SIGKILL');
        done();
      }
    });
  });
  await exited;
  return { acked, said };
}

/**
 * Replays the WAL in `walDir` as a restarted ingester would, flushes everything and returns
 * how often each id occurs in the flushed chunks (`idOf` reads an id from a line). Counting
 * stored chunks, not query results, so no query-time de-duplication hides a copy.
 */
export async function replayedIds(
  walDir: string,
  idOf: (line: string) => number,
): Promise<Map<number, number>> {
  const stored: FlushedChunk[] = [];
  const ingester = new Ingester({
    config: {
      ...DEFAULT_INGESTER_CONFIG,
      wal: { enabled: true, dir: walDir, checkpoint_duration: 0 },
    },
    sink: { putChunks: async (_t, chunks) => void stored.push(...chunks) },
    backgroundLoops: false,
    // The killed child refreshed its lock every 50 ms: take it over quickly.
    walLock: { heartbeatMs: 50, staleMs: 500 },
  });
  await ingester.start();
  await ingester.flushAll();
  const seen = new Map<number, number>();
  for (const c of stored) {
    const it = MemChunk.decode(c.data).iterator(c.fromNs, c.throughNs + 1n, 'forward');
    while (it.next()) {
      const id = idOf(it.line.toString());
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
  }
  await ingester.shutdown({ flush: false });
  return seen;
}
