import RE2 from 're2';

/** How a stream's lines are encoded, which picks its tokenizer (Loki's DetectLogFormat). */
export type LogFormat = 'logfmt' | 'json' | 'unknown';

// RE2, as in Loki: a backtracking engine could take exponential time on this on a long line.
const LOGFMT = new RE2('^(\\w+?=([^"]\\S*?|".+?") )*?(\\w+?=([^"]\\S*?|".+?"))+$');

/** Guessed from a stream's first line: `{...}` is JSON, `k=v k="v"` lines logfmt. */
export function detectLogFormat(line: string): LogFormat {
  if (line.length < 2) return 'unknown';
  if (line[0] === '{' && line[line.length - 1] === '}') return 'json';
  if (LOGFMT.test(line)) return 'logfmt';
  return 'unknown';
}
