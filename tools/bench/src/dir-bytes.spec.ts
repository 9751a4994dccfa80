import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dirBytes } from './dir-bytes';

describe('dirBytes', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('adds the sizes of files at every depth, leaving out skipped names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dir-bytes-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'chunks', 'fake'), { recursive: true });
    mkdirSync(join(dir, 'wal'));
    writeFileSync(join(dir, 'chunks', 'fake', 'a'), Buffer.alloc(100));
    writeFileSync(join(dir, 'index'), Buffer.alloc(20));
    writeFileSync(join(dir, 'wal', 'segment'), Buffer.alloc(1000));
    expect(dirBytes(dir)).toBe(1120);
    expect(dirBytes(dir, new Set(['wal']))).toBe(120);
    expect(dirBytes(join(dir, 'missing'))).toBe(0);
  });
});
