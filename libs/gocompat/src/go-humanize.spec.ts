import { describe, expect, it } from 'vitest';
import { humanizeParseBytes } from './go-humanize';

describe('humanizeParseBytes', () => {
  it('parses byte sizes the way humanize does', () => {
    expect(humanizeParseBytes('42')).toBe(42);
    expect(humanizeParseBytes('42 MB')).toBe(42e6);
    expect(humanizeParseBytes('2.5KiB')).toBe(2560);
    expect(humanizeParseBytes('1,000kb')).toBe(1e6);
    expect(() => humanizeParseBytes('12 XB')).toThrow('unhandled size name: xb');
    expect(() => humanizeParseBytes('MB')).toThrow(
      'strconv.ParseFloat: parsing "": invalid syntax',
    );
  });
});
