/**
 * Random lines for `| json` properties: JSON objects (nested, with every number form, escaped
 * and badly escaped strings and keys, odd keys), damaged ones, and lines that are not JSON.
 */
import fc from 'fast-check';

export const JSON_KEYS = [
  'level',
  'lvl',
  'latency_ms',
  'latency',
  'ms',
  'a',
  'b',
  'app',
  '1x',
  'k-y',
  'é',
  ' level ',
  '',
];
const key = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...JSON_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);
/** Every JSON number form, and bare tokens jsonparser reads as numbers or refuses. */
const number = fc.oneof(
  fc.constantFrom('0', '-0', '12', '-7', '1.5', '1e10', '2E-3', '-0.5e+2', '500', '501.25'),
  fc.constantFrom('123.45', '-0.0', '00.5', '500.0', '999999999999999', '1234567890123456', '0.1'),
  fc.constantFrom('01', '1.', '-', '1e', '--1', '1é', '0x10'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);
const text = fc.oneof(
  fc.constantFrom('info', 'error', 'x y', '', 'é', '\ufffd', '😀'),
  fc.string({ maxLength: 6, unit: 'binary' }),
);
/** String bodies as written in the line: plain, with escapes, or with bad escapes. */
const stringBody = fc.oneof(
  { weight: 4, arbitrary: text.map((s) => JSON.stringify(s).slice(1, -1)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\\u00e9',
      '\\ud83d\\ude00',
      '\\ud800',
      '\\x',
      '\\u12',
      'a\\"b',
      '\\\\',
      // escaped spellings of wanted names (as keys they decode to `level`, `latency_ms`)
      '\\u006cevel',
      'latency\\u005fms',
    ),
  },
);
const scalar = fc.oneof(
  stringBody.map((s) => `"${s}"`),
  number,
  fc.constantFrom('true', 'false', 'null', 'tru', 'nul', '[1,"]",{}]', '[', '"open'),
);
const member = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(key, stringBody, value, fc.boolean(), fc.constantFrom('', ' ', '\n', '\t'))
    .map(([k, raw, v, escapedKey, ws]) => {
      const name = escapedKey ? raw : JSON.stringify(k).slice(1, -1);
      return `${ws}"${name}"${ws}:${ws}${v}${ws}`;
    });
const object = fc.letrec<{ value: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('object')),
  object: fc.array(member(tie('value')), { maxLength: 6 }).map((ms) => `{${ms.join(',')}}`),
})).object;
/** Objects, then damage: a cut, a stray byte, a trailing comma, trailing text. */
const jsonLine = fc
  .tuple(object, fc.nat(), fc.constantFrom('', 'cut', 'insert', 'comma', 'trailing'), fc.string())
  .map(([o, at, damage, extra]) => {
    const p = o.length === 0 ? 0 : at % o.length;
    switch (damage) {
      case 'cut':
        return o.slice(0, p);
      case 'insert':
        return o.slice(0, p) + (extra === '' ? ':' : extra[0]) + o.slice(p);
      case 'comma':
        return o.replace(/}$/, ',}');
      case 'trailing':
        return o + extra;
      default:
        return o;
    }
  });
export const jsonishLine = fc.oneof(
  { weight: 6, arbitrary: jsonLine.map((l) => Buffer.from(l)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 60 }).map((a) => Buffer.from(a)) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('level=info a=1', '', '   ', '10.0.0.1 - - "GET /"')
      .map((t) => Buffer.from(t)),
  },
);
