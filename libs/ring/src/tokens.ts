// A ring member's tokens: random generation (dskit's RandomTokenGenerator) and the tokens file
// (`-ingester.tokens-file-path`) that keeps them across restarts, so a restarted ingester owns
// the same streams as before.

import { readFile, rename, rm, writeFile } from 'node:fs/promises';

const TOKEN_SPACE = 0x1_0000_0000;

/** A uniformly random uint32. */
export type RandomUint32 = () => number;

const randomUint32: RandomUint32 = () => Math.floor(Math.random() * TOKEN_SPACE);

/** `count` distinct random uint32 tokens, none of them in `taken`, sorted ascending. */
export function generateTokens(
  count: number,
  taken: ReadonlySet<number>,
  random: RandomUint32 = randomUint32,
): number[] {
  const chosen = new Set<number>();
  while (chosen.size < count) {
    const candidate = random() >>> 0;
    if (!taken.has(candidate)) chosen.add(candidate);
  }
  return [...chosen].sort((a, b) => a - b);
}

/**
 * The tokens stored at `path` (dskit's JSON `{"tokens":[...]}`), sorted and deduplicated; null
 * when the file does not exist. A file that is not such JSON is an Error naming the file.
 */
export async function loadTokensFile(path: string): Promise<number[] | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`invalid tokens file ${path}: ${(err as Error).message}`);
  }
  const tokens = (parsed as { tokens?: unknown } | null)?.tokens;
  // dskit writes `null` for an instance without tokens.
  if (tokens === null) return [];
  if (!Array.isArray(tokens)) {
    throw new Error(`invalid tokens file ${path}: expected {"tokens":[...]}`);
  }
  for (const t of tokens) {
    if (!Number.isInteger(t) || t < 0 || t >= TOKEN_SPACE) {
      throw new Error(`invalid tokens file ${path}: ${JSON.stringify(t)} is not a uint32 token`);
    }
  }
  return [...new Set(tokens as number[])].sort((a, b) => a - b);
}

/** Stores `tokens` at `path` atomically: a reader sees the old file or the new one, never half. */
export async function saveTokensFile(path: string, tokens: readonly number[]): Promise<void> {
  const temp = `${path}.tmp`;
  await writeFile(temp, JSON.stringify({ tokens }));
  await rename(temp, path);
}

/**
 * Deletes the tokens file (`/ingester/shutdown?delete_ring_tokens=true`), so the next start
 * takes new tokens; nothing when it does not exist.
 */
export async function removeTokensFile(path: string): Promise<void> {
  await rm(path, { force: true });
}
