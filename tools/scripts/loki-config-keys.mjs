// Extracts every key of Loki's configuration reference (docs/sources/shared/configuration.md
// of grafana/loki) into libs/config/src/loki-reference.json: one entry per YAML path, with the
// value's type, default and CLI flag as the reference gives them. Blocks the reference names
// (`[server: <server>]`, `[<tls_config>]`) are expanded in place; maps and lists other than
// `schema_config.configs` are single keys. Run once per Loki release:
//   node tools/scripts/loki-config-keys.mjs <configuration.md> [v3.4.6]
/* global process */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [source, version = 'v3.4.6'] = process.argv.slice(2);
if (source === undefined) {
  process.stderr.write(
    'usage: node tools/scripts/loki-config-keys.mjs <configuration.md> [version]\n',
  );
  process.exit(2);
}
const lines = readFileSync(source, 'utf8').split('\n');

/** Block name → the lines of its YAML code block. */
const blocks = new Map();
let root;
for (let i = 0; i < lines.length; i++) {
  const heading = /^### (.+)$/.exec(lines[i]);
  if (heading === null) continue;
  let j = i + 1;
  while (j < lines.length && !lines[j].startsWith('```') && !lines[j].startsWith('### ')) j++;
  if (j >= lines.length || lines[j] !== '```yaml') continue;
  const body = [];
  for (j++; j < lines.length && !lines[j].startsWith('```'); j++) body.push(lines[j]);
  if (heading[1].startsWith('Supported contents')) root = body;
  else blocks.set(heading[1], body);
}
if (root === undefined) throw new Error('no "Supported contents" block found');

const keys = [];
const seen = new Set();

function add(path, type, def, flag) {
  if (seen.has(path)) return;
  seen.add(path);
  keys.push({ path, type, default: def, flag });
}

/** Walks the lines of one block, prefixing each key with `prefix`. */
function walk(body, prefix, stack = []) {
  const parents = []; // [indent, path]
  let flag = '';
  for (const raw of body) {
    if (raw.trim() === '') {
      flag = '';
      continue;
    }
    const indent = raw.length - raw.trimStart().length;
    const line = raw.trim();
    while (parents.length > 0 && parents[parents.length - 1][0] >= indent) parents.pop();
    const base = parents.length > 0 ? parents[parents.length - 1][1] : prefix;
    const at = (key) => (base === '' ? key : `${base}.${key}`);
    if (line.startsWith('#')) {
      const m = /^# CLI flag: (-\S+)/.exec(line);
      if (m) flag = m[1];
      continue;
    }
    let m = /^\[<([a-z0-9_]+)>\]$/.exec(line);
    if (m) {
      expand(m[1], base, stack);
      flag = '';
      continue;
    }
    m = /^\[([A-Za-z0-9_-]+): <([^>]+)>(?: \| default = (.*))?\]$/.exec(line);
    if (m) {
      const [, key, type, def = ''] = m;
      const list = /^list of (.+)s$/.exec(type);
      if (blocks.has(type)) expand(type, at(key), stack);
      else if (list && blocks.has(list[1])) expand(list[1], `${at(key)}[]`, stack);
      else add(at(key), type, def, flag);
      flag = '';
      continue;
    }
    m = /^([A-Za-z0-9_-]+):$/.exec(line);
    if (m) {
      parents.push([indent, at(m[1])]);
      flag = '';
      continue;
    }
    // `[: <map of string to Header>]` and similar oddities carry no key of their own.
    flag = '';
  }
}

function expand(name, prefix, stack) {
  if (stack.includes(name)) throw new Error(`block ${name} includes itself`);
  walk(blocks.get(name), prefix, [...stack, name]);
}

walk(root, '');
const out = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../libs/config/src/loki-reference.json',
);
writeFileSync(out, `${JSON.stringify({ version, keys }, null, 1)}\n`);
process.stdout.write(`${keys.length} keys written to ${out}\n`);
