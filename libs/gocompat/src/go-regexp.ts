/**
 * Go's `regexp.Compile` error texts for patterns that the RE2 binding refuses: RE2 (C++) names
 * an error differently from Go's regexp/syntax, and users see Go's wording in Loki.
 */

/** RE2 error codes and the wording Go's regexp/syntax uses for the same error. */
const GO_ERROR_CODES: ReadonlyArray<readonly [string, string]> = [
  ['missing )', 'missing closing )'],
  ['missing ]', 'missing closing ]'],
  ['unexpected )', 'unexpected )'],
  ['bad repetition operator', 'invalid nested repetition operator'],
  ['missing argument to repetition operator', 'missing argument to repetition operator'],
  ['no argument for repetition operator', 'missing argument to repetition operator'],
  ['invalid escape sequence', 'invalid escape sequence'],
  ['invalid character class range', 'invalid character class range'],
  ['invalid character class', 'invalid character class'],
  ['invalid named capture group', 'invalid named capture'],
  ['duplicate capture group name', 'duplicate capture group name'],
  ['invalid perl operator', 'invalid or unsupported Perl syntax'],
  ['invalid repetition size', 'invalid repeat count'],
  ['bad repetition count', 'invalid repeat count'],
  ['trailing \\', 'trailing backslash at end of expression'],
  ['invalid UTF-8', 'invalid UTF-8'],
  ['pattern too large', 'expression too large'],
];

/**
 * The text of Go's `*syntax.Error` for `source` (as the user wrote it), given the RE2
 * binding's error message: `error parsing regexp: missing closing ): \`(a\``.
 */
export function regexpCompileError(source: string, re2Message: string): string {
  if (re2Message.startsWith('invalid perl operator: (?<')) {
    const named = goNamedCaptureError(source);
    if (named !== undefined) return named;
  }
  for (const [re2Code, goCode] of GO_ERROR_CODES) {
    if (re2Message.startsWith(re2Code)) {
      const rest = re2Message.slice(re2Code.length).replace(/^:\s*/, '');
      const fragment = rest === '' ? source : asWritten(rest, source);
      return `error parsing regexp: ${goCode}: \`${fragment}\``;
    }
  }
  return `error parsing regexp: ${re2Message}: \`${source}\``;
}

/**
 * The RE2 binding hands `(?<name>` to RE2 as `(?P<name>` and `/` as `\/` (its source follows
 * JavaScript's), so RE2 quotes those spellings; Go quotes the text as written.
 */
function asWritten(fragment: string, source: string): string {
  const slashes = fragment.replaceAll('\\/', '/');
  const candidates = [fragment, slashes].flatMap((f) => [f, f.replaceAll('(?P<', '(?<')]);
  return candidates.find((c) => source.includes(c)) ?? slashes;
}

/** `(?<` not starting a valid `(?<name>`: a lookbehind such as `(?<!a)` or `(?<=a)`. */
const BAD_NAMED_GROUP = /\(\?<(?![A-Za-z0-9_]+>)/;

/**
 * Go reads every `(?<` as the start of a named group, so a lookbehind (which RE2 calls an
 * invalid Perl operator) is an invalid named capture there, quoted up to the next `>` or,
 * without one, to the end of the pattern.
 */
function goNamedCaptureError(source: string): string | undefined {
  const at = source.search(BAD_NAMED_GROUP);
  if (at < 0) return undefined;
  const rest = source.slice(at);
  const close = rest.indexOf('>');
  return `error parsing regexp: invalid named capture: \`${close < 0 ? rest : rest.slice(0, close + 1)}\``;
}
