import { ChunkFormatError } from './errors';
import { UvarintReader, uvarintSize, writeUvarint } from './varint';

/**
 * A chunk-wide table of structured-metadata strings (names and values). Entries refer to
 * strings by id, so a repeated name or value is stored once per chunk. Ids are assigned in
 * first-use order, which keeps the encoding deterministic.
 */
export class SymbolTable {
  readonly strings: string[] = [];
  /** UTF-8 byte length of each string, for size accounting without re-measuring. */
  readonly byteLengths: number[] = [];
  private readonly ids = new Map<string, number>();

  get size(): number {
    return this.strings.length;
  }

  /** The id of `s`, or undefined when no entry of the chunk uses it. */
  idOf(s: string): number | undefined {
    return this.ids.get(s);
  }

  intern(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.ids.set(s, id);
      this.strings.push(s);
      this.byteLengths.push(Buffer.byteLength(s, 'utf8'));
    }
    return id;
  }

  /** Layout: uvarint count, then per string uvarint byte length and the UTF-8 bytes. */
  encode(): Buffer {
    let size = uvarintSize(this.strings.length);
    for (const n of this.byteLengths) size += uvarintSize(n) + n;
    const out = Buffer.allocUnsafe(size);
    let pos = writeUvarint(out, 0, this.strings.length);
    for (let i = 0; i < this.strings.length; i++) {
      pos = writeUvarint(out, pos, this.byteLengths[i]);
      pos += out.write(this.strings[i], pos, 'utf8');
    }
    return out;
  }

  static decode(buf: Buffer): SymbolTable {
    const table = new SymbolTable();
    const r = new UvarintReader(buf, 0, buf.length);
    const count = r.read();
    if (count > buf.length) throw new ChunkFormatError('symbol count exceeds section size');
    for (let i = 0; i < count; i++) {
      const len = r.read();
      if (r.pos + len > buf.length) throw new ChunkFormatError('symbol runs past its section');
      const s = buf.toString('utf8', r.pos, r.pos + len);
      r.pos += len;
      if (table.intern(s) !== i)
        throw new ChunkFormatError(`duplicate symbol ${JSON.stringify(s)}`);
    }
    if (r.pos !== buf.length) throw new ChunkFormatError('trailing bytes after symbol table');
    return table;
  }
}
