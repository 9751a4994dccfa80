import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateTokens, loadTokensFile, removeTokensFile, saveTokensFile } from './tokens';

describe('generateTokens', () => {
  it('returns the count asked for, sorted, unique, none already taken', () => {
    // A generator that repeats itself and hits taken tokens.
    const sequence = [5, 3, 3, 7, 1, 9, 2];
    let n = 0;
    const tokens = generateTokens(4, new Set([7, 1]), () => sequence[n++]);
    expect(tokens).toEqual([2, 3, 5, 9]);
  });

  it('draws uint32 tokens by default', () => {
    const tokens = generateTokens(512, new Set());
    expect(new Set(tokens).size).toBe(512);
    expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
    for (const t of tokens) expect(t >= 0 && t <= 0xffff_ffff && Number.isInteger(t)).toBe(true);
    expect(generateTokens(0, new Set())).toEqual([]);
  });
});

describe('tokens file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ring-tokens-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('round-trips tokens as dskit JSON, leaving no temporary file', async () => {
    const path = join(dir, 'tokens');
    await saveTokensFile(path, [1, 20, 4294967295]);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ tokens: [1, 20, 4294967295] });
    expect(await readdir(dir)).toEqual(['tokens']);
    await saveTokensFile(path, [3]);
    expect(await loadTokensFile(path)).toEqual([3]);
  });

  it('removes the file, and takes a missing one as removed', async () => {
    const path = join(dir, 'tokens');
    await saveTokensFile(path, [7]);
    await removeTokensFile(path);
    expect(await loadTokensFile(path)).toBeNull();
    await removeTokensFile(path);
    expect(await readdir(dir)).toEqual([]);
  });

  it('reads a dskit file, sorting and deduplicating', async () => {
    const path = join(dir, 'tokens');
    await writeFile(path, '{"tokens":[30,10,20,10]}');
    expect(await loadTokensFile(path)).toEqual([10, 20, 30]);
  });

  it('is null when missing and an error naming the file when corrupt', async () => {
    expect(await loadTokensFile(join(dir, 'none'))).toBeNull();
    const path = join(dir, 'tokens');
    await writeFile(path, '{"tokens":[1,');
    await expect(loadTokensFile(path)).rejects.toThrow(`invalid tokens file ${path}`);
    await writeFile(path, '{"tokens":[1,-2]}');
    await expect(loadTokensFile(path)).rejects.toThrow('-2 is not a uint32 token');
    await writeFile(path, '[1,2]');
    await expect(loadTokensFile(path)).rejects.toThrow('expected {"tokens":[...]}');
  });
});
