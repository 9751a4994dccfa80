import { describe, expect, it } from 'vitest';
import { humanizeBytes, humanizeParseBytes } from './go-humanize';

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

describe('humanizeBytes', () => {
  it('prints SI sizes the way humanize.Bytes does', () => {
    expect(humanizeBytes(9)).toBe('9 B');
    expect(humanizeBytes(10)).toBe('10 B');
    expect(humanizeBytes(1500)).toBe('1.5 kB');
    expect(humanizeBytes(20e6)).toBe('20 MB');
    expect(humanizeBytes(10 * 1024 * 1024)).toBe('10 MB');
    expect(humanizeBytes(1024)).toBe('1.0 kB');
    expect(humanizeBytes(82854982)).toBe('83 MB');
  });
});
