import type { MemChunk } from '@logsvc/chunk';
import type { Stream } from './stream';

/** Pushed bytes between two sums of the head blocks: this fraction of the budget. */
const CHECKS_PER_BUDGET = 8;
/** Cutting stops once the heads hold this fraction of the budget, so it is not redone at once. */
const TRIM_TO = 0.75;
/** Heads below this fraction of a full block are never cut early (a tiny block compresses badly). */
const MIN_CUT_FRACTION = 16;

/**
 * Keeps the uncompressed head blocks of all streams under `max_head_block_bytes`. A head is
 * cut into a compressed block when it reaches `chunk_block_size`; with thousands of streams
 * that each grow slowly, none may reach it for a long time while together they hold hundreds
 * of MB of lines as they came. Every budget/8 bytes pushed this sums the heads, and when they
 * are over the budget cuts the largest ones early, until they hold three quarters of it.
 * Cutting early changes no answer: the block holds the same entries, only sooner compressed.
 */
export class HeadBudget {
  private sincecheck = 0;
  private readonly minCut: number;

  constructor(
    private readonly budget: number,
    blockSize: number,
  ) {
    this.minCut = Math.max(1, Math.floor(blockSize / MIN_CUT_FRACTION));
  }

  /**
   * Counts `bytes` just stored; once enough were since the last look, looks at the heads of
   * `streams()` and cuts the largest while they are over budget. Returns how many it cut.
   */
  stored(bytes: number, streams: () => Iterable<Stream>): number {
    if (!(this.budget > 0)) return 0;
    this.sincecheck += bytes;
    if (this.sincecheck * CHECKS_PER_BUDGET < this.budget) return 0;
    this.sincecheck = 0;
    return this.trim(streams());
  }

  private trim(streams: Iterable<Stream>): number {
    let total = 0;
    const big: MemChunk[] = [];
    for (const s of streams) {
      const head = s.head;
      if (head === null) continue;
      const bytes = head.headBytes;
      total += bytes;
      if (bytes >= this.minCut) big.push(head);
    }
    if (total <= this.budget) return 0;
    big.sort((a, b) => b.headBytes - a.headBytes);
    const goal = this.budget * TRIM_TO;
    let cut = 0;
    for (const head of big) {
      if (total <= goal) break;
      total -= head.headBytes;
      head.cutBlock();
      cut++;
    }
    return cut;
  }
}
