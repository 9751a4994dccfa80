import { describe, expect, it } from 'vitest';
import { datasizeParseString, datasizeString } from './datasize';

describe('datasizeParseString', () => {
  it.each([
    ['256KB', 262_144],
    ['256kb', 262_144],
    ['256KiB', 262_144],
    ['4MB', 4_194_304],
    ['1GiB', 1_073_741_824],
    ['1024', 1024],
    ['10B', 10],
    ['1.5KB', 1536],
  ])('%s is %d bytes', (text, bytes) => {
    expect(datasizeParseString(text)).toBe(bytes);
  });

  it.each(['', 'abc', 'KB', '-1KB', '1XB'])('rejects %j', (text) => {
    expect(datasizeParseString(text)).toBeUndefined();
  });

  it('formats with the largest exact unit', () => {
    expect(datasizeString(262_144)).toBe('256KB');
    expect(datasizeString(100 * 1024 * 1024)).toBe('100MB');
    expect(datasizeString(1000)).toBe('1000B');
    expect(datasizeString(0)).toBe('0B');
  });
});

describe('datasizeString', () => {
  it('formats sizes like Go datasize', () => {
    const MiB = 1 << 20;
    expect([0, 1500, 3 * MiB, 15 * MiB, 2048].map(datasizeString)).toEqual([
      '0B',
      '1500B',
      '3MB',
      '15MB',
      '2KB',
    ]);
  });
});
