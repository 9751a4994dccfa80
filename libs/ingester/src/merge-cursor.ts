import { SourceMergeCursor } from '@logsvc/chunk';

/**
 * Merges the cursors of one stream's chunks, given oldest chunk first (they may overlap in time
 * after out-of-order writes), into one in `direction` order. Entries that share a timestamp
 * come in insertion order: the older chunk's first, then the newer chunk's whose line the older
 * did not have at that timestamp (copies are dropped); backward is exactly the reverse. The
 * current entry's line is a view that stays valid until the next call to `next()`.
 */
export class MergedCursor extends SourceMergeCursor {}
