/**
 * A chunk's cut blocks for a query worker thread without copying them: each block's compressed
 * bytes live in a SharedArrayBuffer, which `postMessage` shares instead of cloning. Cut blocks
 * never change, so sharing them is safe; a block's bytes move there on its first snapshot.
 */
import type { BlockMeta } from './block';
import type { SpilledBytes } from './block-spill';
import type { BlockTimes, PackedTimes, TimesArena } from './block-times';
import type { ChunkContents, StoredBlock } from './chunk-format';
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

/**
 * The blocks as a decoded chunk's contents (their bytes stay in shared memory). `symbols`, when
 * given, is the same table already decoded (from the head taken with the blocks).
 */
export function readSharedBlocks(shared: SharedBlocks, symbols?: SymbolTable): ChunkContents {
  const encoded = shared.symbols;
  return {
    encoding: shared.encoding,
    blocks: shared.metas.map((meta, i) => {
      const d = shared.data[i];
      // Never checked: the bytes were made in this process (see `fromSnapshot`).
      return { ...meta, data: Buffer.from(d.buffer, d.byteOffset, d.byteLength), crc: 0 };
    }),
    symbols:
      symbols ??
      SymbolTable.decode(Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength)),
  };
}
