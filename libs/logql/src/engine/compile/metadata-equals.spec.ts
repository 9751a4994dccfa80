import { describe, expect, it } from 'vitest';
import { parseLogSelector } from '../../syntax/parser';
import { compilePipeline } from './pipeline';

const pushed = (q: string) => compilePipeline(parseLogSelector(q)).metadataEquals;

describe('metadata equalities passed to the source', () => {
  it('takes `name="value"` filters before any parser, also after line filters and in `and`', () => {
    expect(pushed('{app="x"} | trace_id="abc"')).toEqual([{ name: 'trace_id', value: 'abc' }]);
    expect(pushed('{app="x"} |= "GET" | detected_level="error", service_name="api"')).toEqual([
      { name: 'detected_level', value: 'error' },
      { name: 'service_name', value: 'api' },
    ]);
    expect(pushed('{app="x"} | a="1" | json | b="2"')).toEqual([{ name: 'a', value: '1' }]);
  });

  it('takes nothing a line without the value could pass, or after labels may change', () => {
    for (const q of [
      '{app="x"}',
      '{app="x"} | json | trace_id="abc"',
      '{app="x"} | logfmt | trace_id="abc"',
      '{app="x"} | label_format trace_id=pod | trace_id="abc"',
      '{app="x"} | line_format "{{.a}}" | trace_id="abc"',
      '{app="x"} | trace_id="abc" or level="error"',
      '{app="x"} | trace_id!="abc"',
      '{app="x"} | trace_id=~"abc"',
      '{app="x"} | trace_id=""',
      '{app="x"} | __error__="x"',
      '{app="x"} | trace_id_extracted="abc"',
    ]) {
      expect(pushed(q), q).toBeUndefined();
    }
  });
});
