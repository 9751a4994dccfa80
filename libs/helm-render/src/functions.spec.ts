import * as template from '@logsvc/gotemplate';
import { describe, expect, it } from 'vitest';
import { helmFunctions } from './functions';
import { toValue } from './values';

const render = (text: string, data: unknown) =>
  template.compileGoTemplateSet({ 't.yaml': text }, helmFunctions).execute('t.yaml', toValue(data));

describe('Helm functions', () => {
  it.each([
    ['{{ "abcdef" | trunc 3 }}', {}, 'abc'],
    ['{{ "abcdef" | trunc -2 }}', {}, 'ef'],
    ['{{ .v | quote }}', { v: '0.1.0' }, '"0.1.0"'],
    ['{{ .n | quote }}', { n: 3 }, '"3"'],
    ['{{ default "x" .missing }}', {}, 'x'],
    ['{{ default "x" .v }}', { v: 'set' }, 'set'],
    ['{{ if empty .m }}empty{{ end }}', { m: {} }, 'empty'],
    ['{{ toYaml .m }}', { m: { b: 1, a: ['x', 'y'] } }, 'a:\n  - x\n  - y\nb: 1'],
    ['x:{{ toYaml .m | nindent 2 }}', { m: { k: 'v' } }, 'x:\n  k: v'],
    ['{{ printf "%s-%s" .a .b | replace "+" "_" }}', { a: 'c', b: '1+2' }, 'c-1_2'],
    ['{{ .r | int }}', { r: 2 }, '2'],
  ])('%s', (text, data, want) => {
    expect(render(text, data)).toBe(want);
  });

  it('fails with the message of required', () => {
    expect(() => render('{{ required "image.tag is required" .tag }}', {})).toThrow(
      /image.tag is required/,
    );
  });
});
