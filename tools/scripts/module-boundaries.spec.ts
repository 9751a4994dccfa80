import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Lints in-memory sources as if they were files of the repository, with the project's
// eslint.config.mjs, to show that `npm run lint` fails on each kind of boundary breach.
const ROOT = resolve(__dirname, '..', '..');
const eslint = new ESLint({ cwd: ROOT });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, filePath) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('module boundaries (eslint.config.mjs)', () => {
  it('refuses Nest, Fastify, the server app and apps/ in a library', async () => {
    const lib = 'libs/storage/src/probe.ts';
    for (const [source, rule] of [
      ['@nestjs/common', 'no-restricted-imports'],
      ['fastify', 'no-restricted-imports'],
      ['@logsvc/server', 'logsvc/boundaries'],
      ['../../../apps/logsvc/src/app', 'logsvc/boundaries'],
    ]) {
      const found = await problems(lib, `import * as x from '${source}';\nexport const y = x;\n`);
      expect(found, source).toHaveLength(1);
      expect(found[0]).toMatch(new RegExp(`^${rule}: `));
    }
  });

  it('refuses a library importing a library of its own or a higher layer', async () => {
    const upward = `import { parseExpr } from '@logsvc/logql';\nexport const p = parseExpr;\n`;
    for (const file of ['libs/chunk/src/probe.ts', 'libs/chunk/src/probe.spec.ts']) {
      const found = await problems(file, upward);
      expect(found, file).toHaveLength(1);
      expect(found[0]).toMatch(
        /^logsvc\/boundaries: @logsvc\/chunk \(layer 2, formats\) may not import @logsvc\/logql \(layer 3, language\)/,
      );
    }
    const sideways = `export type { Labels } from '@logsvc/api';\n`;
    expect(await problems('libs/config/src/probe.ts', sideways)).toEqual([
      expect.stringMatching(/@logsvc\/config \(layer 1, model\) may not import @logsvc\/api/),
    ]);
    const dynamic = `export const q = () => import('@logsvc/querier');\n`;
    expect(await problems('libs/ingester/src/probe.ts', dynamic)).toEqual([
      expect.stringMatching(/may not import @logsvc\/querier/),
    ]);
    const downward = `import { MemChunk } from '@logsvc/chunk';\nexport const m = MemChunk;\n`;
    expect(await problems('libs/logql/src/probe.ts', downward)).toEqual([]);
  });

  it('refuses a library importing a lower library its package.json does not declare', async () => {
    const code = `import { ParseError } from '@logsvc/logql';\nexport const e = ParseError;\n`;
    expect(await problems('libs/ingester/src/probe.ts', code)).toEqual([
      expect.stringMatching(/without declaring it in its package.json/),
    ]);
  });

  it('refuses relative imports into another project, in tests too', async () => {
    const cases: Array<[string, string]> = [
      ['libs/frontend/src/probe.spec.ts', '../../logql/src/engine/conformance/fixture'],
      ['e2e/cluster/probe.spec.ts', '../../libs/ring/src/testing/etcd-server'],
      ['e2e/probe.spec.ts', '../tools/bench/src/gen'],
      ['apps/logsvc/test/probe.spec.ts', '../../../libs/storage/src/testing/s3rver-process'],
      ['libs/pattern/src/probe.spec.ts', '../../../tools/bench/src/gen'],
    ];
    for (const [file, source] of cases) {
      const found = await problems(file, `import * as x from '${source}';\nexport const y = x;\n`);
      expect(found, source).toEqual([
        expect.stringMatching(/^logsvc\/boundaries: .* by relative path: import another project/),
      ]);
    }
    const own = `import * as x from '../support/server';\nexport const y = x;\n`;
    expect(await problems('e2e/cluster/probe.spec.ts', own)).toEqual([]);
  });

  it('lets tests, and only tests, use testing entries', async () => {
    const etcd = `import { startEtcd } from '@logsvc/ring/testing';\nexport const s = startEtcd;\n`;
    const bench = `import { Prng } from '@logsvc/bench/testing';\nexport const p = Prng;\n`;
    expect(await problems('e2e/cluster/probe.spec.ts', etcd)).toEqual([]);
    expect(await problems('libs/pattern/src/probe.spec.ts', bench)).toEqual([]);
    expect(await problems('tools/bench/src/probe.ts', etcd)).toEqual([]);
    expect(await problems('libs/distributor/src/probe.ts', etcd)).toEqual([
      expect.stringMatching(/is a testing entry: only tests/),
    ]);
    expect(await problems('apps/logsvc/src/probe.ts', etcd)).toEqual([
      expect.stringMatching(/is a testing entry: only tests/),
    ]);
    const app = `import * as x from '@logsvc/operator';\nexport const y = x;\n`;
    expect(await problems('e2e/probe.spec.ts', app)).toEqual([
      expect.stringMatching(/is apps\/operator: no other project imports it/),
    ]);
  });

  it('keeps every library in the layer table, and the table in docs/architecture.md', async () => {
    const { LAYER_OF, LIBRARY_LAYERS } = await import('./layers.mjs');
    const libs = readdirSync(resolve(ROOT, 'libs')).sort();
    expect([...LAYER_OF.keys()].sort()).toEqual(libs);
    const doc = readFileSync(resolve(ROOT, 'docs/architecture.md'), 'utf8').replace(/ +/g, ' ');
    LIBRARY_LAYERS.forEach((layer, index) => {
      const row = `| ${index} | ${layer.name} | ${layer.libs.map((l) => `\`${l}\``).join(', ')} |`;
      expect(doc, row).toContain(row);
    });
  });

  it("keeps each library's declared dependencies in lower layers", async () => {
    const { LAYER_OF } = await import('./layers.mjs');
    for (const lib of LAYER_OF.keys()) {
      const pkg = JSON.parse(readFileSync(resolve(ROOT, 'libs', lib, 'package.json'), 'utf8'));
      for (const dep of Object.keys(pkg.dependencies ?? {})) {
        const name = dep.replace(/^@logsvc\//, '');
        if (name === dep) continue;
        expect(LAYER_OF.get(name), `${lib} -> ${dep}`).toBeLessThan(LAYER_OF.get(lib) as number);
      }
    }
  });

  it('lets the app use Nest and a library use Node and other libraries', async () => {
    const nest = `import { Module } from '@nestjs/common';\nexport const m = Module;\n`;
    expect(await problems('apps/logsvc/src/probe.ts', nest)).toEqual([]);
    const node = `import { join } from 'node:path';\nimport { kindOf } from '@logsvc/errors';\nexport const f = [join, kindOf];\n`;
    expect(await problems('libs/storage/src/probe.ts', node)).toEqual([]);
  });

  it('keeps @logsvc/api/browser free of Node modules, Node globals and outside imports', async () => {
    const file = 'libs/api/src/browser/probe.ts';
    const cases: Array<[string, RegExp]> = [
      [`import { readFile } from 'node:fs';\nexport const r = readFile;\n`, /no Node modules/],
      [`import { join } from 'path';\nexport const j = join;\n`, /no Node modules/],
      [`import type { Labels } from '../labels';\nexport type L = Labels;\n`, /its own folder/],
      [`export { kindOf } from '@logsvc/errors';\n`, /its own folder/],
      [`export const b = Buffer.from('x');\n`, /no-restricted-globals: .*no Buffer/],
      [`export const e = process.env;\n`, /no-restricted-globals: .*no process/],
    ];
    for (const [code, expected] of cases) {
      const found = await problems(file, code);
      expect(found, code).toHaveLength(1);
      expect(found[0], code).toMatch(expected);
    }
    const own = `import { ROUTES } from './routes';\nexport const p = ROUTES.push.path;\n`;
    expect(await problems(file, own)).toEqual([]);
  });

  it('keeps @logsvc/operator-api (the LogService schema the UI shares) free of Node', async () => {
    const file = 'libs/operator-api/src/logservice/probe.ts';
    const cases: Array<[string, RegExp]> = [
      [`import { readFile } from 'node:fs';\nexport const r = readFile;\n`, /no Node modules/],
      [`export { parse } from 'yaml';\n`, /only its own files/],
      [`export const e = process.env;\n`, /no-restricted-globals: .*operator-api.*no process/],
    ];
    for (const [code, expected] of cases) {
      const found = await problems(file, code);
      expect(found, code).toHaveLength(1);
      expect(found[0], code).toMatch(expected);
    }
    const own = `import { s } from '../schema';\nexport const n = s.bool('x');\n`;
    expect(await problems(file, own)).toEqual([]);
  });
});
