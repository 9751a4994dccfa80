import { describe, expect, it } from 'vitest';
import { compileGoTemplateSet, type FuncMap, type Value } from './index';

describe('compileGoTemplateSet', () => {
  const funcs = (run: (name: string, dot: Value) => string): FuncMap =>
    new Map([
      [
        'include',
        {
          params: ['string', 'any'] as const,
          call: ([name, dot]: Value[]) => run(name as string, dot),
        },
      ],
      [
        'upper',
        { params: ['string'] as const, call: ([s]: Value[]) => (s as string).toUpperCase() },
      ],
    ]);

  it('shares defines across files and renders them into strings with include', () => {
    const set = compileGoTemplateSet(
      {
        '_helpers.tpl': '{{- define "name" -}}{{ .app }}-{{ .env }}{{- end }}\n',
        'a.yaml': 'name: {{ include "name" . | upper }}\n{{ template "name" . }}',
      },
      funcs,
    );
    const dot = new Map<string, Value>([
      ['app', 'logs'],
      ['env', 'prod'],
    ]);
    expect(set.execute('a.yaml', dot)).toBe('name: LOGS-PROD\nlogs-prod');
    expect(set.defined).toEqual(['name']);
  });

  it('reports an unknown defined template', () => {
    const set = compileGoTemplateSet({ 'a.yaml': '{{ include "nope" . }}' }, funcs);
    expect(() => set.execute('a.yaml', null)).toThrow(/no template "nope"/);
  });
});
