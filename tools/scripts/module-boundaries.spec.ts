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
    for (const source of [
      '@nestjs/common',
      'fastify',
      '@logsvc/server',
      '../../../apps/logsvc/src/app',
    ]) {
      const found = await problems(lib, `import * as x from '${source}';\nexport const y = x;\n`);
      expect(found, source).toHaveLength(1);
      expect(found[0]).toMatch(/^no-restricted-imports: /);
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
      [`export { kindOf } from '@logsvc/errors';\n`, /only its own files/],
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
