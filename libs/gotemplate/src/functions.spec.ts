import { describe, expect, it } from 'vitest';
import { compileTemplate } from './index';

const ctx = { line: 'Line', timestampNs: 1_700_000_000_123_456_789n };
const run = (t: string, data: Record<string, string> = {}): string =>
  compileTemplate(t).execute(data, ctx);

describe('Loki documented examples', () => {
  it.each([
    ['{{ .path | replace " " "_" | trunc 5 | upper }}', 'A_B_C', { path: 'a b c d e' }],
    ['{{ if and (contains "he" "hello") (contains "llo" "hello") }} yes {{end}}', ' yes ', {}],
    ['{{ if or (contains "he" "hello") (contains "llo" "hello") }} yes {{end}}', ' yes ', {}],
    [
      '{{ if contains .err "ErrTimeout" }} timeout {{else if contains "he" "hello"}} yes {{else}} no {{end}}',
      ' yes ',
      { err: 'x' },
    ],
    [
      '{{ .request_method | ToLower }}{{ .request_method | ToUpper }}',
      'getGET',
      { request_method: 'Get' },
    ],
    ['{{ToUpper "This is a string" | ToLower}}', 'this is a string', {}],
    ['{{ Replace "This is a string" " " "-" -1 }}', 'This-is-a-string', {}],
    ['{{ Replace "oink oink oink" "k" "ky" 2 }}', 'oinky oinky oink', {}],
    ['{{ Trim "¡¡¡Hello, Gophers!!!" "!¡" }}', 'Hello, Gophers', {}],
    [
      '{{ TrimLeft "¡¡¡Hello!!!" "!¡" }}|{{ TrimRight "¡¡¡Hello!!!" "!¡" }}',
      'Hello!!!|¡¡¡Hello',
      {},
    ],
    [
      '{{ TrimPrefix "¡¡¡Hello" "¡¡¡" }}|{{ TrimSuffix "Hello!!!" "!!!" }}|{{ TrimSpace "  \\t x \\n" }}',
      'Hello|Hello|x',
      {},
    ],
    [
      '{{ trim "   hello    " }}|{{ trimAll "$" "$5.00$" }}|{{ trimSuffix "-" "hello-" }}|{{ trimPrefix "-" "-hello" }}',
      'hello|5.00|hello|hello',
      {},
    ],
    ['{{ regexReplaceAll "a(x*)b" "-ab-axxb-" "${1}W" }}', '-W-xxW-', {}],
    ['{{ regexReplaceAll "a(x*)b" "-ab-axxb-" "$1W" }}', '---', {}],
    ['{{ regexReplaceAllLiteral "a(x*)b" "-ab-axxb-" "${1}" }}', '-${1}-${1}-', {}],
    [
      '{{ regexReplaceAll "(?P<user>\\\\w+)@(?P<host>\\\\w+)" .e "${host}/$user $$" }}',
      'example/joe $ x',
      { e: 'joe@example x' },
    ],
    [
      '{{ regexReplaceAll "a*" "baaac" "-" }}|{{ regexReplaceAll "x*" "日本" "-" }}',
      '-b-c-|-日-本-',
      {},
    ],
    [
      '{{ "hello" | upper }} {{ .path | lower }} {{ title "hello world" }}',
      'HELLO abc Hello World',
      { path: 'ABC' },
    ],
    [
      '{{ trunc 5 "hello world" }}|{{ trunc -5 "hello world" }}|{{ trunc 50 "hi" }}',
      'hello|world|hi',
      {},
    ],
    [
      '{{ substr 0 5 "hello world" }}|{{ substr 6 11 "hello world" }}|{{ substr -1 2 "abc" }}|{{ substr 1 -1 "abc" }}',
      'hello|world|ab|bc',
      {},
    ],
    [
      '{{ hasPrefix "he" "hello" }} {{ hasSuffix "lo" "hello" }} {{ contains "x" "hello" }}',
      'true true false',
      {},
    ],
    ['[{{ indent 4 "a\\nb" }}][{{ nindent 2 "a" }}]', '[    a\n    b][\n  a]', {}],
    ['{{ repeat 3 "ab" }}', 'ababab', {}],
    ['{{ count "a" "banana" }} {{ count "a|n" "banana" }} {{ count "x*" "abc" }}', '3 5 4', {}],
    [
      '{{ urlencode "a b&c=é" }}|{{ urldecode "a+b%26c%3D%C3%A9" }}',
      'a+b%26c%3D%C3%A9|a b&c=é',
      {},
    ],
    [
      '{{ .foo | b64enc }}|{{ "aGVsbG8=" | b64dec }}|{{ b64dec "!!" }}',
      'aGk=|hello|illegal base64 data at input byte 0',
      { foo: 'hi' },
    ],
    [
      '{{ alignLeft 5 "hello world" }}|{{ alignRight 5 "hello world" }}|{{ alignLeft 7 "héllo" }}|{{ alignRight 4 "ab" }}|{{ alignLeft -1 "ab" }}',
      'hello|world|héllo  |  ab|ab',
      {},
    ],
    ['{{ bytes "1.5 KB" }} {{ bytes "2MiB" }} {{ bytes "1,024" }}', '1500 2.097152e+06 1024', {}],
    [
      '{{ duration "1h30m" }} {{ duration_seconds "-1.5s" }} {{ duration "250ms" }}',
      '5400 -1.5 0.25',
      {},
    ],
  ])('%s', (t, want, data) => {
    expect(run(t, data)).toBe(want);
  });
});

describe('math (sprig, with cast.ToInt64 / ToFloat64 conversions)', () => {
  it.each([
    ['{{ add 3 2 5 }} {{ add .a .b }} {{ add "3.0" "x" 1.9 }}', '10 7 4', { a: '3', b: '4' }],
    [
      '{{ sub 5 2 }} {{ mul 2 3 4 }} {{ div 10 3 }} {{ div -7 2 }} {{ mod 10 3 }} {{ mod -7 3 }}',
      '3 24 3 -3 1 -1',
      {},
    ],
    ['{{ add "0x10" "010" true }}', '25', {}],
    [
      '{{ addf 3.5 2 }} {{ addf 0.1 0.2 }} {{ subf 5.5 2 1.5 }} {{ mulf 5.5 2 2.5 }} {{ divf 10 2 4 }} {{ divf 2 3 }}',
      '5.5 0.3 2 27.5 1.25 0.6666666666666667',
      {},
    ],
    ['{{ max 1 2 3 }} {{ min 3 "1" 2 }} {{ maxf 1 2.5 3 }} {{ minf 1.5 2 3 }}', '3 1 3 1.5', {}],
    [
      '{{ ceil 123.001 }} {{ floor 123.9999 }} {{ round 123.555555 3 }} {{ round 2.5 0 }} {{ round 1.24 1 0.3 }}',
      '124 123 123.556 3 1.3',
      {},
    ],
    [
      '{{ int "42" }} {{ int 3.9 }} {{ float64 "1.5" }} {{ float64 2 }} {{ .n | int | add 1 }}',
      '42 3 1.5 2 8',
      { n: '7' },
    ],
    [
      '{{ default "-" .bad }}|{{ default "-" .good }}|{{ default 5 0 }}|{{ .bad | default "d" }}',
      '-|ok|5|d',
      { bad: '', good: 'ok' },
    ],
    ['{{ if gt (.status | int) 399 }}error{{ end }}', 'error', { status: '404' }],
  ])('%s', (t, want, data) => {
    expect(run(t, data)).toBe(want);
  });

  it('errors on division by zero like Go', () => {
    expect(() => run('{{ divf 1 0 }}')).toThrow('error calling divf: decimal division by 0');
    expect(() => run('{{ mod 1 0 }}')).toThrow(
      'error calling mod: runtime error: integer divide by zero',
    );
  });
});

describe('dates', () => {
  it.each([
    ['{{ __timestamp__ | date "2006-01-02T15:04:05.00Z-07:00" }}', '2023-11-14T22:13:20.12Z+00:00'],
    [
      '{{ __timestamp__ | unixEpoch }} {{ __timestamp__ | unixEpochMillis }} {{ __timestamp__ | unixEpochNanos }}',
      '1700000000 1700000000123 1700000000123456789',
    ],
    ['{{ toDate "2006-01-02" "2021-11-02" | date "02-01-2006" }}', '02-11-2021'],
    ['{{ toDate "2006-01-02" "not a date" }}', '0001-01-01 00:00:00 +0000 UTC'],
    ['{{ toDate "2006-01-02" "2021-02-30" | unixEpoch }}', '-62135596800'],
    [
      '{{ toDateInZone "2006-01-02 15:04" "Europe/Berlin" "2024-07-01 10:00" }}',
      '2024-07-01 10:00:00 +0200 CEST',
    ],
    [
      '{{ toDateInZone "2006-01-02 15:04" "Europe/Berlin" "2024-01-01 10:00" | unixEpoch }}',
      '1704099600',
    ],
    [
      '{{ toDateInZone "2006-01-02" "No/Such_Zone" "2024-01-01" }}',
      '2024-01-01 00:00:00 +0000 UTC',
    ],
    [
      '{{ toDate "02/Jan/2006:15:04:05 -0700" "10/Oct/2000:13:55:36 -0700" | unixEpoch }}',
      '971211336',
    ],
    [
      '{{ toDate "2006-01-02T15:04:05Z07:00" "2024-03-05T06:07:08.5+05:30" | date "Mon Jan _2 3:04PM 2006 .000" }}',
      'Tue Mar  5 12:37AM 2024 .500',
    ],
    [
      '{{ unixToTime "19373" | unixEpoch }} {{ unixToTime "1673798889902" | unixEpochMillis }} {{ unixToTime "1673798889902000" | unixEpochNanos }}',
      '1673827200 1673798889902 1673798889902000000',
    ],
    [
      '{{ date "2006" 1700000000 }} {{ date "January Monday 002 __2 pm" 1700000000 }}',
      '2023 November Tuesday 318 318 pm',
    ],
    ['{{ (now | unixEpoch | len) }}', '10'],
  ])('%s', (t, want) => {
    expect(run(t)).toBe(want);
  });
});
