import { describe, expect, it } from 'vitest';
import { tokenize } from './lexer';
import { formatBytes, formatDuration, parseLogqlDuration } from './units';
import { conjuncts } from './walk';
import { parseExpr } from './parser';
import type { LogSelectorExpr } from './ast';

describe('durations and sizes', () => {
  it('reads a duration token as Prometheus syntax first, then Go syntax', () => {
    expect(parseLogqlDuration('1d')).toBe(86_400e9);
    expect(parseLogqlDuration('1.5h')).toBe(5400e9);
    expect(parseLogqlDuration('250µs')).toBe(250_000);
  });

  it('prints durations and sizes so that they read back exactly', () => {
    for (const ns of [0, 1, 999, 250_000, 1e9, 5400e9, 86_400e9, 90061001e6, -5e9, -1]) {
      const text = formatDuration(ns);
      const back = tokenize(`x>${text}`)[2];
      expect(back.type, text).toBe('DURATION');
      expect(back.num, text).toBe(ns);
    }
    expect(formatDuration(5400e9)).toBe('1h30m');
    // Go's scanner reads `1P` as a decimal number with a hexadecimal exponent, as Loki does.
    expect(() => parseExpr('{a="b"} | x>1PiB')).toThrow(/exponent requires hexadecimal mantissa/);
    expect(formatBytes(1024 ** 5)).toBe('1024TiB');
    // Prometheus prints weeks and years only when they are exact.
    expect(formatDuration(721 * 3600e9)).toBe('30d1h');
    expect(formatDuration(14 * 86_400e9)).toBe('2w');
    expect(formatDuration(366 * 86_400e9)).toBe('366d');
    for (const b of [
      0,
      1,
      1000,
      1024,
      2560,
      20e6,
      3 * 1024 ** 3,
      123457,
      1024 ** 5,
      1e15,
      2 ** 53,
    ]) {
      const text = formatBytes(b);
      const back = tokenize(`x>${text}`)[2];
      expect(back.type, text).toBe('BYTES');
      expect(back.num, text).toBe(b);
    }
  });

  it('lexes a function name as a keyword only before a call', () => {
    const types = tokenize('sum by (x) (count) rate ( bytes').map((t) => `${t.type}:${t.value}`);
    expect(types).toEqual([
      'FUNC:sum',
      'KW:by',
      'OP:(',
      'IDENT:x',
      'OP:)',
      'OP:(',
      'IDENT:count',
      'OP:)',
      'FUNC:rate',
      'OP:(',
      'IDENT:bytes',
      'EOF:',
    ]);
  });

  it('flattens and-chains of label filters', () => {
    const e = parseExpr('{a="b"} | x="1", y="2" and z="3" or w="4"') as LogSelectorExpr;
    const stage = e.stages[0];
    if (stage.kind !== 'LabelFilterStage') throw new Error('expected a label filter');
    expect(conjuncts(stage.filter).map((f) => f.kind)).toEqual([
      'StringLabelFilter',
      'BinaryLabelFilter',
    ]);
  });
});
