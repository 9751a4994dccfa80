/**
 * A chunk's cut blocks for a query worker thread without copying them: each block's compressed
 * bytes live in a SharedArrayBuffer, which `postMessage` shares instead of cloning. Cut blocks
 * never change, so sharing them is safe; a block's bytes move there on its first snapshot.
 */
import type { BlockMeta } from './block';
import type { SpilledBytes } from './block-spill';
import { type BlockTimes, type PackedTimes, type TimesArena, unpackTimes } from './block-times';
import type { StoredBlock } from './chunk-format';
import type { ChunkEncoding } from './options';
import { SymbolTable } from './symbols';

export interface SharedBlocks {
  readonly encoding: ChunkEncoding;
  readonly metas: readonly BlockMeta[];
  /** Each block's compressed bytes, views of shared memory; empty for a spilled block. */
  readonly data: readonly Uint8Array[];
  /**
   * Where a spilled block's bytes are (null: in `data`). The reader reads them itself, when it
   * needs them; the snapshot's `retain` keeps them valid.
   */
  readonly spilled: readonly (SpilledBytes | null)[];
  /** The blocks' side copies of their times, packed (`TimesArena.pack`); null when none has one. */
  readonly times: PackedTimes | null;
  /** The chunk's symbol table (`SymbolTable.encode`) when the blocks were taken. */
  readonly symbols: Uint8Array;
}

/** `data` itself when it already lives in shared memory, else a copy there. */
export function inSharedMemory(data: Buffer): Buffer {
  if (data.buffer instanceof SharedArrayBuffer) return data;
  const shared = Buffer.from(new SharedArrayBuffer(data.length));
  data.copy(shared);
  return shared;
}

/** The blocks' metadata and shared bytes; `symbols` is the chunk's `SymbolTable.encode()`. */
export function shareBlocks(
  encoding: ChunkEncoding,
  blocks: readonly (StoredBlock & {
    readonly spill?: SpilledBytes;
    readonly times?: BlockTimes;
  })[],
  symbols: Uint8Array,
  times: TimesArena | null = null,
): SharedBlocks {
  return {
    encoding,
    metas: blocks.map((b) => ({
      minTs: b.minTs,
      maxTs: b.maxTs,
      entries: b.entries,
      rawBytes: b.rawBytes,
      uncompressedLength: b.uncompressedLength,
    })),
    data: blocks.map((b) => b.data),
    spilled: blocks.map((b) =>
      b.spill === undefined
        ? null
        : { fd: b.spill.fd, offset: b.spill.offset, length: b.spill.length },
    ),
    times: times?.pack(blocks) ?? null,
    symbols,
  };
}

/** The chunk's symbol table the blocks were taken with. */
export function sharedSymbols(shared: SharedBlocks): SymbolTable {
  const encoded = shared.symbols;
  return SymbolTable.decode(Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength));
}

/**
 * Block `i` as a read-only chunk's cut block: its bytes stay in shared memory, or, spilled, are
 * read from the spill file when a reader needs them (and then kept for this copy's readers).
 * One object literal of one shape per block: spreading the posted metas cost several µs each.
 */
export function sharedBlock(shared: SharedBlocks, i: number): SharedCutBlock {
  const meta = shared.metas[i];
  const d = shared.data[i];
  const spill = shared.spilled[i];
  const times = shared.times === null ? undefined : unpackTimes(shared.times, i);
  return {
    minTs: meta.minTs,
    maxTs: meta.maxTs,
    entries: meta.entries,
    rawBytes: meta.rawBytes,
    uncompressedLength: meta.uncompressedLength,
    data: Buffer.from(d.buffer, d.byteOffset, d.byteLength),
    // Never checked: the bytes were made in this process (see `MemChunk.fromSnapshot`).
    crc: 0,
    payload: null,
    times,
    spill: spill ?? undefined,
    keepRead: spill !== null,
  };
}

/** A read-only chunk's cut block made from a snapshot's shared blocks. */
export interface SharedCutBlock extends StoredBlock {
  readonly payload: null;
  readonly times: BlockTimes | undefined;
  readonly spill: SpilledBytes | undefined;
  readonly keepRead: boolean;
}
