import { describe, expect, it } from 'vitest';
import { compileTemplate, TemplateError } from './index';

const ctx = { line: 'The Log Line', timestampNs: 1_700_000_000_123_456_789n };
const run = (t: string, data: Record<string, string> = {}): string =>
  compileTemplate(t).execute(data, ctx);
const err = (t: string, data: Record<string, string> = {}): string => {
  try {
    run(t, data);
  } catch (e) {
    expect(e).toBeInstanceOf(TemplateError);
    return (e as Error).message;
  }
  throw new Error(`no error for ${t}`);
};

describe('actions', () => {
  const data = { a: 'A', b: 'B', n: '3', empty: '', unicode: 'héllo 世界' };
  it.each([
    ['plain text', 'plain text'],
    ['{{.a}} {{.b}}', 'A B'],
    ['{{ .a }}-{{.missing}}-', 'A--'],
    ['{{.unicode}}|{{ len .unicode }}', 'héllo 世界|13'],
    ['{{/* a comment */}}x', 'x'],
    ['a  {{- /* c */ -}}  b', 'ab'],
    ['a \n {{- .a -}} \n b', 'aAb'],
    ['a {{- .a }} b', 'aA b'],
    ['{{ -3 }}', '-3'],
    ['{{ .a | printf "%s!" }}', 'A!'],
    ['{{ . | len }}', '5'],
    ['{{ $.a }}{{ $ | len }}', 'A5'],
    ['{{ $x := .a }}{{ $x }}{{ $x = "z" }}{{ $x }}', 'Az'],
    ['{{ if .a }}yes{{ end }}', 'yes'],
    ['{{ if .empty }}yes{{ else }}no{{ end }}', 'no'],
    ['{{ if .empty }}1{{ else if .missing }}2{{ else if .b }}3{{ else }}4{{ end }}', '3'],
    ['{{ with .a }}[{{ . }}]{{ end }}{{ with .empty }}x{{ else }}none{{ end }}', '[A]none'],
    ['{{ with .empty }}1{{ else with .b }}{{ . }}{{ end }}', 'B'],
    ['{{ if $v := .a }}{{ $v }}{{ end }}', 'A'],
    ['{{ range $i, $v := fromJson `["x","y"]` }}{{ $i }}={{ $v }} {{ end }}', '0=x 1=y '],
    ['{{ range fromJson `[1,2]` }}<{{ . }}>{{ end }}', '<1><2>'],
    ['{{ range $k, $v := fromJson `{"b":2,"a":1}` }}{{ $k }}:{{ $v }};{{ end }}', 'a:1;b:2;'],
    [
      '{{ range $k, $v := . }}{{ $k }}={{ $v }},{{ end }}',
      'a=A,b=B,empty=,n=3,unicode=héllo 世界,',
    ],
    ['{{ range fromJson `[]` }}x{{ else }}empty{{ end }}', 'empty'],
    ['{{ range (fromJson `{}`).x }}x{{ else }}none{{ end }}', 'none'],
    ['{{ range 3 }}{{ . }}{{ end }}', '012'],
    [
      '{{ range $i, $v := fromJson `[1,2,3,4]` }}{{ if eq $i 1 }}{{ continue }}{{ end }}{{ if eq $i 3 }}{{ break }}{{ end }}{{ $v }}{{ end }}',
      '13',
    ],
    ['{{ $n := 0 }}{{ range fromJson `[5,6]` }}{{ $n = . }}{{ end }}{{ $n }}', '6'],
    [
      '{{ define "T" }}({{ . }}){{ end }}{{ template "T" .a }}{{ template "T" }}',
      '(A)(<no value>)',
    ],
    ['{{ block "B" .b }}[{{ . }}]{{ end }}', '[B]'],
    ['{{ (fromJson `{"k":{"x":"deep"}}`).k.x }}', 'deep'],
    ['{{ (fromJson `{"k":1}`).none }}', '<no value>'],
    ['{{ index (fromJson `{"k":null}`) "k" }}', '<no value>'],
    ['{{ fromJson `[1,"a",null,true,{"z":[]}]` }}', '[1 a <nil> true map[z:[]]]'],
    ['{{ fromJson "not json" }}', '<no value>'],
    ['{{ __line__ }}|{{ __line__ | lower }}', 'The Log Line|the log line'],
    ['{{ __timestamp__ }}', '2023-11-14 22:13:20.123456789 +0000 UTC'],
    ['{{ __timestamp__.Unix }} {{ (__timestamp__).UnixMilli }}', '1700000000 1700000000123'],
  ])('%s', (t, want) => {
    expect(run(t, data)).toBe(want);
  });
});

describe('literals', () => {
  it.each([
    ['{{ "a\\tb\\u00e9\\x41\\101" }}', 'a\tbéAA'],
    ['{{ `raw\\n` }}', 'raw\\n'],
    ['{{ 42 }} {{ -7 }} {{ 0x1F }} {{ 0o17 }} {{ 0b101 }} {{ 1_000 }}', '42 -7 31 15 5 1000'],
    ['{{ 1.5 }} {{ 1.0 }} {{ 1e3 }} {{ 1e21 }} {{ .5 }} {{ 1e-7 }}', '1.5 1 1000 1e+21 0.5 1e-07'],
    ["{{ 'a' }} {{ '\\n' }} {{ 'é' }}", '97 10 233'],
    ['{{ true }} {{ false }}', 'true false'],
    ['{{ printf "%T %T %T %T" 1 1.5 "s" true }}', 'int float64 string bool'],
  ])('%s', (t, want) => {
    expect(run(t)).toBe(want);
  });
});

describe('builtins', () => {
  const data = { a: 'abc', one: '1', two: '2' };
  it.each([
    ['{{ and 1 0 "x" }}|{{ and 1 "x" }}|{{ or 0 "" }}|{{ or 0 "y" 3 }}', '0|x||y'],
    ['{{ and .missing (index 1 1) }}', ''], // short-circuit: index would fail
    ['{{ not 0 }} {{ not "x" }} {{ not .missing }}', 'true false true'],
    ['{{ len .a }} {{ len (fromJson `[1,2]`) }} {{ len (fromJson `{"a":1}`) }}', '3 2 1'],
    ['{{ index .a 1 }} {{ index (fromJson `[[1,2],[3,4]]`) 1 0 }} {{ index . "one" }}', '98 3 1'],
    [
      '{{ slice .a 1 }} {{ slice .a 1 2 }} {{ slice .a }} {{ slice (fromJson `[1,2,3]`) 1 }}',
      'bc b abc [2 3]',
    ],
    ['{{ print "a" "b" 1 2 "c" }}|{{ print 1.5 true }}|{{ print .missing }}', 'ab1 2c|1.5 true|'],
    ['{{ println "a" 1 }}', 'a 1\n'],
    ['{{ html "<a href=\\"x\\">&\'</a>" }}', '&lt;a href=&#34;x&#34;&gt;&amp;&#39;&lt;/a&gt;'],
    [
      '{{ js "it\'s \\"q\\" <b> & = \\n" }}',
      'it\\\'s \\"q\\" \\u003Cb\\u003E \\u0026 \\u003D \\u000A',
    ],
    ['{{ urlquery "a b&c=d/é" }}', 'a+b%26c%3Dd%2F%C3%A9'],
    [
      '{{ eq .one "1" }} {{ eq .one "2" "1" }} {{ eq 1 2 }} {{ eq 1.5 1.5 }} {{ eq true true }}',
      'true true false true true',
    ],
    [
      '{{ ne .one .two }} {{ lt 1 2 }} {{ le 2 2 }} {{ gt "b" "a" }} {{ ge 1.5 2.5 }}',
      'true true true true false',
    ],
    ['{{ eq (len .a) 3 }} {{ lt (add 1 1) 3 }}', 'true true'],
    ['{{ eq .missing "" }}', 'true'],
  ])('%s', (t, want) => {
    expect(run(t, data)).toBe(want);
  });
});

describe('parse errors', () => {
  it.each([
    ['{{ foo }}', 'template: line:1: function "foo" not defined'],
    ['{{ .a ', 'template: line:1: unclosed action'],
    ['{{ if .a }}x', 'template: line:1: unexpected EOF'],
    ['{{ end }}', 'template: line:1: unexpected {{end}}'],
    ['{{ else }}', 'template: line:1: unexpected {{else}}'],
    ['{{ $y }}', 'template: line:1: undefined variable "$y"'],
    ['{{ if }}{{ end }}', 'template: line:1: missing value for if'],
    ['{{ }}', 'template: line:1: missing value for command'],
    ['{{ .a | "x" }}', 'template: line:1: non executable command in pipeline stage 2'],
    ['{{ break }}', 'template: line:1: {{break}} outside {{range}}'],
    ['{{ "abc }}', 'template: line:1: unterminated quoted string'],
    ['{{ `abc }}', 'template: line:1: unterminated raw quoted string'],
    ['{{ (.a }}', 'template: line:1: unclosed left paren'],
    ['{{ .a) }}', 'template: line:1: unexpected right paren'],
    ['{{ 3x }}', 'template: line:1: bad number syntax: "3x"'],
    // Checked against Go 1.23: a sign right after a number starts a complex constant's part.
    ['{{ print 2006-01 }}', 'template: line:1: bad number syntax: "2006-01"'],
    ['{{ print -1-1 }}', 'template: line:1: bad number syntax: "-1-1"'],
    ['{{ @ }}', 'template: line:1: unexpected "@" in command'],
    ['{{ .a@ }}', "template: line:1: bad character U+0040 '@'"],
    ['{{ print@ }}', "template: line:1: bad character U+0040 '@'"],
    ['{{ 99999999999999999999 }}', 'template: line:1: integer overflow: "99999999999999999999"'],
    ['{{/* open', 'template: line:1: unclosed comment'],
    ['{{/* x */ .a }}', 'template: line:1: comment ends before closing delimiter'],
    ['line1\n{{ if .a }}\n{{ nope }}', 'template: line:3: function "nope" not defined'],
    ['{{ "x".y }}', 'template: line:1: unexpected . after term "\\"x\\""'],
  ])('%s', (t, want) => {
    expect(() => compileTemplate(t)).toThrow(new TemplateError(want));
  });

  it('uses the given template name (label_format uses "label")', () => {
    expect(() => compileTemplate('{{ foo }}', { name: 'label' })).toThrow(
      'template: label:1: function "foo" not defined',
    );
  });
});

describe('execution errors', () => {
  it.each([
    [
      '{{ div 1 0 }}',
      'template: line:1:3: executing "line" at <div 1 0>: error calling div: runtime error: integer divide by zero',
    ],
    [
      '{{ lt 1 1.5 }}',
      'template: line:1:3: executing "line" at <lt 1 1.5>: error calling lt: incompatible types for comparison',
    ],
    [
      '{{ eq 1 "1" }}',
      'template: line:1:3: executing "line" at <eq 1 "1">: error calling eq: incompatible types for comparison',
    ],
    ['{{ ToUpper 3 }}', 'template: line:1:11: executing "line" at <3>: expected string; found 3'],
    [
      '{{ trunc (add 1 2) "hello" }}',
      'template: line:1:10: executing "line" at <add 1 2>: wrong type for value; expected int; got int64',
    ],
    [
      '{{ .a.b }}',
      'template: line:1:5: executing "line" at <.a.b>: can\'t evaluate field b in type string',
    ],
    [
      'x\n  {{ index .a 5 }}',
      'template: line:2:5: executing "line" at <index .a 5>: error calling index: index out of range: 5',
    ],
    // Go lets an index equal to the length through its range check; reflect then panics.
    [
      '{{ index .a 3 }}',
      'template: line:1:3: executing "line" at <index .a 3>: error calling index: reflect: string index out of range',
    ],
    [
      '{{ index .a -1 }}',
      'template: line:1:3: executing "line" at <index .a -1>: error calling index: index out of range: -1',
    ],
    [
      '{{ index (fromJson "[1,2]") 2 }}',
      'template: line:1:3: executing "line" at <index (fromJson "[1,2]") 2>: error calling index: reflect: slice index out of range',
    ],
    [
      '{{ index (fromJson "[1,2]") 7 }}',
      'template: line:1:3: executing "line" at <index (fromJson "[1,2]") 7>: error calling index: index out of range: 7',
    ],
    [
      '{{ index .a "x" }}',
      'template: line:1:3: executing "line" at <index .a "x">: error calling index: cannot index slice/array with type string',
    ],
    [
      '{{ upper }}',
      'template: line:1:3: executing "line" at <upper>: wrong number of args for upper: want 1 got 0',
    ],
    [
      '{{ upper "a" "b" }}',
      'template: line:1:3: executing "line" at <upper>: wrong number of args for upper: want 1 got 2',
    ],
    [
      '{{ "x" | upper "a" }}',
      'template: line:1:9: executing "line" at <upper>: wrong number of args for upper: want 1 got 2',
    ],
    ['{{ nil }}', 'template: line:1:3: executing "line" at <nil>: nil is not a command'],
    [
      '{{ .a 1 }}',
      'template: line:1:3: executing "line" at <.a>: a is not a method but has arguments',
    ],
    [
      '{{ "x" 1 }}',
      'template: line:1:3: executing "line" at <"x">: can\'t give argument to non-function "x"',
    ],
    // with missingkey=zero a missing label is "", and Go cannot range over a string
    [
      '{{ range .missing }}{{ end }}',
      'template: line:1:9: executing "line" at <{{range .missing}}{{end}}>: range can\'t iterate over ',
    ],
    [
      '{{ range .a }}{{ end }}',
      'template: line:1:9: executing "line" at <{{range .a}}{{end}}>: range can\'t iterate over abc',
    ],
    [
      '{{ template "nope" }}',
      'template: line:1:12: executing "line" at <{{template "nope"}}>: template "nope" not defined',
    ],
    [
      '{{ len 3 }}',
      'template: line:1:3: executing "line" at <len 3>: error calling len: len of type int',
    ],
    [
      '{{ regexReplaceAll "(a" "x" "y" }}',
      'template: line:1:3: executing "line" at <regexReplaceAll "(a" "x" "y">: error calling regexReplaceAll: error parsing regexp: missing closing ): `(a`',
    ],
    [
      '{{ unixToTime "123" }}',
      'template: line:1:3: executing "line" at <unixToTime "123">: error calling unixToTime: unable to parse time \'123\'',
    ],
    [
      '{{ unixEpoch "x" }}',
      'template: line:1:13: executing "line" at <"x">: can\'t handle "x" for arg of type time.Time',
    ],
    [
      '{{ duration "5" }}',
      'template: line:1:3: executing "line" at <duration "5">: error calling duration: time: missing unit in duration "5"',
    ],
    [
      '{{ substr 5 9 "abc" }}',
      'template: line:1:3: executing "line" at <substr 5 9 "abc">: error calling substr: runtime error: slice bounds out of range [5:3]',
    ],
  ])('%s', (t, want) => {
    expect(err(t, { a: 'abc' })).toBe(want);
  });

  it('leaves no partial state between executions', () => {
    const t = compileTemplate('{{ $x := .a }}{{ $x }}');
    expect(t.execute({ a: '1' }, ctx)).toBe('1');
    expect(t.execute({ a: '2' }, ctx)).toBe('2');
  });
});

describe('metadata', () => {
  it('reports referenced fields and __line__ use', () => {
    const t = compileTemplate(
      '{{ .a }}{{ if .b }}{{ __line__ | upper }}{{ end }}{{ range .c }}{{ .d }}{{ end }}',
    );
    expect([...t.referencedFields].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(t.usesLine).toBe(true);
    const u = compileTemplate('{{ .a }} {{ __timestamp__ }}');
    expect(u.usesLine).toBe(false);
    expect(u.referencedFields).toEqual(['a']);
  });
});
