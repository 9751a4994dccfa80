import type { DiffQuery } from './compare';

/**
 * Lines that test the parsers' corners: nested and odd JSON, duplicate and unusual keys,
 * escapes, truncated input, logfmt without values or quotes, ANSI colours. Pushed as one
 * stream to the push probes' tenant, then queried through every parser.
 */
const EDGE_LINES = [
  '{"a":{"b":{"c":"deep"}},"arr":[1,2,{"x":"y"}],"n":1.5e3,"t":true,"f":false,"z":null}',
  '{"a-b":"dash","a.b":"dot","a b":"space","1st":"digit","ünï":"code"}',
  '{"esc":"line\\nbreak \\"quoted\\" \\u00e9 \\ud83d\\ude00","slash":"a\\/b","num":-0.0,"big":12345678901234567890}',
  '{"msg":"level=warn in json","level":"ERROR","nested":{"level":"inner"}}',
  '["array","root"]',
  '"just a string"',
  '{"a":1,',
  '{"a":"x"}trailing',
  '{"__name__":"x","service_name":"override","app":"inner"}',
  'level=info msg="hello world" empty= novalue quoted="a \\"b\\" c" unicode=é k-ey=v k.ey=v2 1num=5',
  'a=1 b="unterminated',
  '=nokey x=y  spaced  = z',
  'ts=2026-01-01T00:00:00Z lvl=DEBUG caller=x.go:1 dur=1.5s size=2KiB',
  '\u001b[31mred\u001b[0m colored level=error',
  '10.1.2.3 - - [01/Jan/2026:00:00:00 +0000] "GET /a?b=c HTTP/1.1" 200 512 "-" "curl/8"',
  'WARNING: disk almost full',
  '{"severity":"critical","message":"x"}',
  'lvl=fatal x=1',
  '',
];

const EDGE = '{app="edge"}';

const FIRST_WINS =
  'a key repeated in one JSON object: the first value wins, as in Loki 3.6+; Loki 3.4 keeps the last (docs/logql.md)';
const EMPTY_KEY = 'a JSON key that is empty: Loki 3.4 answers 500 (it cannot print the label set)';
const PARSED_ERROR =
  'a parsed key named __error__ sets the entry error here; Loki shows it but error filters miss it (docs/logql.md)';

/** Lines of parser corners, a stream each, with the reason where logsvc differs on purpose. */
const ODD_CASES: readonly { case: string; line: string; query: string; known?: string }[] = [
  { case: 'dup-json', line: '{"dup":"first","dup":"second"}', query: '| json', known: FIRST_WINS },
  { case: 'dup-logfmt', line: 'a=1 a=2', query: '| logfmt' },
  { case: 'dup-logfmt-sanitized', line: 'k-ey=1 k.ey=2 k-ey=3', query: '| logfmt' },
  { case: 'empty-key', line: '{"":"emptykey","k":"v"}', query: '| json', known: EMPTY_KEY },
  {
    case: 'parsed-error',
    line: '{"__error__":"fake","k":"v"}',
    query: '| json | __error__=""',
    known: PARSED_ERROR,
  },
];

export const EDGE_PROBES: readonly DiffQuery[] = [
  {
    push: {
      name: 'parser edge lines',
      body: (now) =>
        JSON.stringify({
          streams: [
            {
              stream: { app: 'edge' },
              values: EDGE_LINES.map((line, i) => [String(now - BigInt(i + 1) * 1000n), line]),
            },
            ...ODD_CASES.map((c) => ({
              stream: { app: 'edge-odd', case: c.case },
              values: [[String(now - 1000n), c.line]],
            })),
          ],
        }),
    },
  },
  ...[
    `${EDGE}`,
    `${EDGE} | json`,
    `${EDGE} | json | __error__=""`,
    `${EDGE} | logfmt`,
    `${EDGE} | logfmt --strict`,
    `${EDGE} | logfmt --keep-empty`,
    `${EDGE} | logfmt --strict --keep-empty | __error__=""`,
    `${EDGE} | json deep="a.b.c", second="arr[1]", obj="arr[2]", k="[\\"a-b\\"]", n, t, z`,
    `${EDGE} | json | line_format "{{.a_b_c}}|{{.esc}}|{{.arr}}|{{.dup}}"`,
    `${EDGE} | json | line_format "{{ .esc | len }} {{ .big }} {{ .num }}"`,
    `${EDGE} | unpack`,
    `${EDGE} | decolorize`,
    `${EDGE} | pattern "<ip> - - [<ts>] \\"<method> <path> <_>\\" <status> <size> <_>"`,
    `${EDGE} | regexp "(?P<first>\\\\w+)"`,
    `${EDGE} | logfmt | keep level, lvl, msg`,
    `${EDGE} | json | drop __error__, __error_details__`,
    `${EDGE} |= "level" | logfmt | level != ""`,
  ].map((query): DiffQuery => ({ query, params: { limit: 50 }, pushTenant: true })),
  ...ODD_CASES.map((c): DiffQuery => ({
    query: `{app="edge-odd", case="${c.case}"} ${c.query}`,
    params: { limit: 5 },
    pushTenant: true,
    ...(c.known === undefined ? {} : { known: c.known }),
  })),
  {
    query: `sum by (detected_level) (count_over_time(${EDGE}[1h]))`,
    path: '/loki/api/v1/query',
    pushTenant: true,
  },
  {
    query: `sum by (level) (count_over_time(${EDGE} | logfmt [1h]))`,
    path: '/loki/api/v1/query',
    pushTenant: true,
  },
  {
    query: `sum by (level) (count_over_time(${EDGE} | json | __error__="" [1h]))`,
    path: '/loki/api/v1/query',
    pushTenant: true,
  },
  {
    query: `sum(bytes_over_time(${EDGE}[1h]))`,
    path: '/loki/api/v1/query',
    pushTenant: true,
  },
];
