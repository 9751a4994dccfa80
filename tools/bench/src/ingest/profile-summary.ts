/**
 * Summarises a V8 `.cpuprofile` (from `--cpu-prof`, e.g. `bench:ingest -- --cpu-prof=DIR`):
 * self time by function (file:function) and by file, as percentages of all samples.
 *
 *   node tools/bench/dist/ingest/profile-summary.js DIR/CPU.*.cpuprofile [--top=25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileRow {
  readonly name: string;
  readonly percent: number;
}

function shortUrl(url: string): string {
  if (!url) return '(native)';
  const cut = url.replace(/^file:\/\//, '');
  const nm = cut.lastIndexOf('node_modules/');
  if (nm >= 0) return cut.slice(nm + 'node_modules/'.length);
  const repo = cut.indexOf('/work/main/');
  return repo >= 0 ? cut.slice(repo + '/work/main/'.length) : cut;
}

/**
 * Self time per function and per file, highest first, as percentages of the busy time (all
 * samples but `(idle)`, so time the server spent waiting for load does not dilute them).
 */
export function summarizeProfile(profile: CpuProfile): {
  functions: ProfileRow[];
  files: ProfileRow[];
  idlePercent: number;
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    if (byId.get(id)?.callFrame.functionName === '(idle)') {
      idle += dt;
      return;
    }
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const functions = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, t] of self) {
    const f = byId.get(id)!.callFrame;
    const file = shortUrl(f.url);
    const fn = `${file}:${f.functionName || '(anonymous)'}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    functions.set(fn, (functions.get(fn) ?? 0) + t);
    files.set(file, (files.get(file) ?? 0) + t);
  }
  const rows = (m: Map<string, number>) =>
    [...m]
      .map(([name, t]) => ({ name, percent: (t / total) * 100 }))
      .sort((a, b) => b.percent - a.percent);
  return {
    functions: rows(functions),
    files: rows(files),
    idlePercent: (idle / (idle + total)) * 100,
  };
}

function main(argv: string[]): void {
  const top = Number(
    /^--top=(\d+)$/.exec(argv.find((a) => a.startsWith('--top=')) ?? '')?.[1] ?? 25,
  );
  const paths = argv.filter((a) => !a.startsWith('--'));
  if (paths.length === 0) {
    process.stderr.write('usage: profile-summary FILE.cpuprofile [--top=N]\n');
    process.exitCode = 1;
    return;
  }
  for (const path of paths) {
    const { functions, files, idlePercent } = summarizeProfile(
      JSON.parse(readFileSync(path, 'utf8')) as CpuProfile,
    );
    const print = (title: string, rows: ProfileRow[]) => {
      process.stdout.write(`${title}\n`);
      for (const r of rows.slice(0, top))
        process.stdout.write(`${r.percent.toFixed(1).padStart(6)}%  ${r.name}\n`);
    };
    process.stdout.write(`== ${path}: main thread idle ${idlePercent.toFixed(1)}% of samples\n`);
    print('== self time by function, % of busy samples', functions);
    print('== self time by file', files);
  }
}

if (require.main === module) main(process.argv.slice(2));
