/**
 * One stream's entries from several cursors (ingesters and store, or replicas) merged into a
 * single cursor in direction order, the cursors in priority order. Within one timestamp the
 * first cursor's entries come in its order, then each later cursor's entries whose line was
 * not seen at that timestamp (Loki's merge); backward is exactly the reverse. Every entry
 * dropped as a copy is counted in `totalDuplicates`. Lines are copied only when two cursors
 * hold entries at the same timestamp.
 */
import { SourceMergeCursor } from '@logsvc/chunk';
import type { Direction, EntryCursor } from '../source';
import type { ChunkStats } from '../stats';

export class DedupingMergeCursor extends SourceMergeCursor {
  constructor(
    cursors: readonly EntryCursor[],
    direction: Direction,
    private readonly stats: ChunkStats,
  ) {
    super(cursors, direction);
  }

  protected override duplicate(): void {
    this.stats.totalDuplicates++;
  }
}
