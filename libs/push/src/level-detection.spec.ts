import { describe, expect, it } from 'vitest';
import { LevelDetector, levelFromSeverityNumber } from './level-detection';
import { DEFAULT_PUSH_LIMITS } from './limits';

const d = new LevelDetector(DEFAULT_PUSH_LIMITS.log_level_fields);
const line = (s: string) => d.fromLine(Buffer.from(s));

describe('detected_level from the line', () => {
  it.each([
    ['{"level":"WARNING","msg":"disk"}', 'warn'],
    ['  {"msg":"a \\"level\\": x","nested":{"level":"error"},"severity":"trc"} ', 'trace'],
    ['{"LEVEL":"fatal"}', 'fatal'],
    ['{"level":"notice","msg":"debug: x"}', 'debug'],
    ['ts=1 lvl=dbg msg="x y"', 'debug'],
    ['ts=1 msg="level=error" level=inf', 'info'],
    ['ts=1 LEVEL=critical', 'critical'],
    ['some INFO line', 'info'],
    ['disk ERROR', 'error'],
    ['WARN: low', 'warn'],
    ['CRITICAL: x', 'critical'],
    ['DEBUG: x', 'debug'],
    ['127.0.0.1 - GET /', 'unknown'],
    ['level=constructor', 'unknown'],
    ['x WARNING then info', 'info'],
    ['ts=1 level=notice', 'unknown'],
    ['ts=1 level=notice warn: x', 'warn'],
    ['{"level":"notice"}', 'unknown'],
    ['"level" in quotes, error', 'error'],
    ['10.0.0.1 - - "GET /debug HTTP/1.1" 200 12 rt=0.005', 'unknown'],
  ])('%s -> %s', (text, level) => {
    expect(line(text)).toBe(level);
  });

  it('maps OTLP severity numbers', () => {
    expect(['0', '1', '5', '9', '13', '17', '21', '30', 'x'].map(levelFromSeverityNumber)).toEqual([
      'unknown',
      'trace',
      'debug',
      'info',
      'warn',
      'error',
      'fatal',
      'unknown',
      'info',
    ]);
  });

  it('never throws on malformed JSON-looking lines', () => {
    for (const s of ['{', '{"level', '{"level":}', '{"a":[1,{"b":"}', '{"level" "x"}', '{x}'])
      expect(typeof line(s)).toBe('string');
  });
});

describe('custom log_level_fields', () => {
  it('matches field names literally, including regex characters', () => {
    const custom = new LevelDetector(['log.level', 'sev(1)']);
    expect(custom.fromLine(Buffer.from('{"log.level":"warn"}'))).toBe('warn');
    expect(custom.fromLine(Buffer.from('{"logXlevel":"warn"}'))).toBe('unknown');
    expect(custom.fromLine(Buffer.from('a=1 sev(1)=dbg'))).toBe('debug');
    expect(new LevelDetector([]).fromLine(Buffer.from('level=error'))).toBe('error');
  });
});
