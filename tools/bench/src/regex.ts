/**
 * Regex engine throughput for LogQL line filters (`|~ "re"`): MB/s of log lines scanned.
 * Compares the native `re2` binding on Buffers (what libs/logql uses) and on strings, and,
 * when they are installed, `re2js` (pure JS port, strings) and `re2-wasm`.
 *
 *   npx tsx tools/bench/src/regex.ts
 *
 * Results go in docs/logql.md ("Regex engine").
 */
import RE2 from 're2';

const PATTERNS = ['error|timeout', '(?i)user_id=\\d+ status=5\\d\\d', 'GET /api/v1/.*took=\\d+ms'];
const LINE_COUNT = 200_000;

function makeLines(): string[] {
  const levels = ['info', 'debug', 'warn', 'error'];
  const lines: string[] = [];
  for (let i = 0; i < LINE_COUNT; i++) {
    lines.push(
      `ts=2024-05-0${i % 9}T10:00:00Z level=${levels[i % 4]} caller=handler.go:${i % 500} ` +
        `msg="GET /api/v1/items/${i} took=${i % 997}ms" user_id=${i * 7} status=${200 + (i % 4) * 100}`,
    );
  }
  return lines;
}

interface Engine {
  name: string;
  run(pattern: string, lines: string[], buffers: Buffer[]): number;
}

function optionalRequire(name: string): unknown {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(name);
  } catch {
    return undefined;
  }
}

function engines(): Engine[] {
  const list: Engine[] = [
    {
      name: 're2 (native) on Buffers',
      run: (p, _lines, buffers) => {
        const re = new RE2(p, 'u');
        let n = 0;
        for (const b of buffers) if (re.test(b)) n++;
        return n;
      },
    },
    {
      name: 're2 (native) on strings',
      run: (p, lines) => {
        const re = new RE2(p, 'u');
        let n = 0;
        for (const l of lines) if (re.test(l)) n++;
        return n;
      },
    },
  ];
  const re2js = optionalRequire('re2js') as
    { RE2JS: { compile(p: string): { matcher(s: string): { find(): boolean } } } } | undefined;
  if (re2js !== undefined) {
    list.push({
      name: 're2js on strings',
      run: (p, lines) => {
        const re = re2js.RE2JS.compile(p);
        let n = 0;
        for (const l of lines) if (re.matcher(l).find()) n++;
        return n;
      },
    });
  }
  const wasm = optionalRequire('re2-wasm') as
    { RE2: new (p: string, flags: string) => { test(s: string): boolean } } | undefined;
  if (wasm !== undefined) {
    list.push({
      name: 're2-wasm on strings',
      run: (p, lines) => {
        const re = new wasm.RE2(p, 'u');
        let n = 0;
        for (const l of lines) if (re.test(l)) n++;
        return n;
      },
    });
  }
  return list;
}

function main(): void {
  const lines = makeLines();
  const buffers = lines.map((l) => Buffer.from(l));
  const totalBytes = buffers.reduce((s, b) => s + b.length, 0);
  console.log(`${LINE_COUNT} lines, ${(totalBytes / 1e6).toFixed(1)} MB per pattern`);
  for (const engine of engines()) {
    let bytes = 0;
    let ns = 0n;
    for (const p of PATTERNS) {
      engine.run(p, lines.slice(0, 2000), buffers.slice(0, 2000)); // warm-up
      const t0 = process.hrtime.bigint();
      engine.run(p, lines, buffers);
      ns += process.hrtime.bigint() - t0;
      bytes += totalBytes;
    }
    const mbPerS = bytes / 1e6 / (Number(ns) / 1e9);
    console.log(`${engine.name.padEnd(28)} ${mbPerS.toFixed(0).padStart(6)} MB/s`);
  }
}

main();
