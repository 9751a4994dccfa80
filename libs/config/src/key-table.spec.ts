import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify, keyTable } from './key-table';
import { LOKI_KEYS, LOKI_REFERENCE_VERSION } from './loki-reference';

const PAGE = join(__dirname, '../../../docs/configuration.md');

/** The rows of the generated table in docs/configuration.md, cells trimmed. */
function documentedRows(): string[][] {
  const text = readFileSync(PAGE, 'utf8');
  const from = text.indexOf('<!-- key-table:start');
  const to = text.indexOf('<!-- key-table:end -->');
  expect(from, 'key table markers').toBeGreaterThan(0);
  return text
    .slice(from, to)
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

function covers(row: string, path: string): boolean {
  if (row === path) return true;
  if (row.endsWith('.*')) return path.startsWith(row.slice(0, -1));
  if (row.endsWith('*'))
    return path.startsWith(row.slice(0, -1)) && !path.slice(row.length - 1).includes('.');
  return false;
}

describe('the key table', () => {
  it(`classifies every key of Loki ${LOKI_REFERENCE_VERSION}'s configuration reference`, () => {
    expect(LOKI_KEYS.size).toBeGreaterThan(2000);
    const unclassified = [...LOKI_KEYS.keys()].filter((key) => classify(key) === undefined);
    expect(unclassified).toEqual([]);
  });

  it('has a row for every key of the reference', () => {
    const rows = keyTable().map((row) => row.key);
    const missing = [...LOKI_KEYS.keys()].filter((key) => !rows.some((row) => covers(row, key)));
    expect(missing).toEqual([]);
  });

  it('is what docs/configuration.md shows (regenerate: npx tsx tools/scripts/config-key-table.ts)', () => {
    const expected = keyTable().map((row) => [
      `\`${row.key}\``,
      {
        wired: 'wired',
        logsvc: "wired (logsvc's own)",
        warn: 'accepted, warns',
        refused: 'refused',
      }[row.class],
      row.note.replace(/\|/g, '\\|'),
    ]);
    expect(documentedRows()).toEqual(expected);
  });

  it('names the classes of the keys a new Loki user meets first', () => {
    expect(classify('analytics.reporting_enabled')?.class).toBe('warn');
    expect(classify('tracing.enabled')?.class).toBe('warn');
    expect(classify('frontend.encoding')?.class).toBe('warn');
    expect(classify('ruler.rule_path')?.class).toBe('warn');
    expect(classify('storage_config.tsdb_shipper.active_index_directory')?.class).toBe('warn');
    expect(classify('server.http_listen_port')?.class).toBe('wired');
    expect(classify('storage_config.bigtable.project')?.class).toBe('refused');
    expect(classify('server.http_tls_config.cert_file')?.class).toBe('refused');
  });
});
