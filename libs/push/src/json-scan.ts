/**
 * Byte-level scanning of JSON text in a Buffer: enough structure (strings, nesting, commas) to
 * cut an array into runs of whole elements that `JSON.parse` then checks and reads. Every
 * character looked at is ASCII, so cuts never split a UTF-8 sequence.
 */

/** Bytes of array elements parsed per `JSON.parse` call. */
export const BATCH_BYTES = 256 * 1024;
/** An element larger than this is not parsed in one piece when its reader can avoid it. */
export const BIG_ELEMENT_BYTES = 4 * BATCH_BYTES;

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

export function skipSpace(body: Buffer, pos: number): number {
  while (pos < body.length && isSpace(body[pos])) pos++;
  return pos;
}

/** Past the closing quote of the string opening at `pos`; -1 if it does not close. */
export function stringEnd(body: Buffer, pos: number): number {
  for (let i = pos + 1; i < body.length; i++) {
    const c = body[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/** Past the value starting at `pos`: where the `,`, `}` or `]` after it is; -1 if unclosed. */
export function valueEnd(body: Buffer, pos: number): number {
  let depth = 0;
  for (let i = pos; i < body.length; i++) {
    const c = body[i];
    if (c === QUOTE) {
      i = stringEnd(body, i) - 1;
      if (i < 0) return -1;
      if (depth === 0) return skipSpace(body, i + 1);
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 0) return i;
      if (--depth === 0) return skipSpace(body, i + 1);
    } else if (c === COMMA && depth === 0) return i;
  }
  return -1;
}

/** A run of whole elements of an array, and where the next run starts. */
export interface ElementRun {
  readonly kind: 'run';
  /** Byte range of the elements and the commas between them. */
  readonly from: number;
  readonly to: number;
  /** Past the comma after the run, or past the array's closing bracket. */
  readonly next: number;
  /** The array ended with this run. */
  readonly last: boolean;
}

/** An element (first of its run) over BIG_ELEMENT_BYTES, left to the caller to read. */
export interface BigElementStart {
  readonly kind: 'big';
  readonly from: number;
}

/**
 * The next run of elements of the array whose content continues at `pos`, about BATCH_BYTES
 * long. Null when the array does not end or an element is empty (`[,` or `,]`): the caller
 * reports the body's own error then.
 */
export function nextRun(
  body: Buffer,
  pos: number,
  first: boolean,
): ElementRun | BigElementStart | null {
  const from = skipSpace(body, pos);
  if (body[from] === CLOSE_ARRAY) {
    // An empty array; `,]` is malformed.
    return first ? { kind: 'run', from, to: from, next: from + 1, last: true } : null;
  }
  let depth = 0;
  let inString = false;
  let elementStart = from;
  for (let i = from; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) {
        depth--;
        continue;
      }
      if (c !== CLOSE_ARRAY || skipSpace(body, elementStart) === i) return null;
      return { kind: 'run', from, to: i, next: i + 1, last: true };
    } else if (c === COMMA && depth === 0) {
      if (skipSpace(body, elementStart) === i) return null;
      if (i - from >= BATCH_BYTES) return { kind: 'run', from, to: i, next: i + 1, last: false };
      elementStart = i + 1;
    }
    if (depth > 0 && i - elementStart > BIG_ELEMENT_BYTES) return big(from, elementStart);
  }
  return null;
}

/** The big element itself when it opens the run, else the run of elements before it. */
function big(from: number, elementStart: number): ElementRun | BigElementStart {
  if (elementStart === from) return { kind: 'big', from };
  // elementStart is just past the comma that ends the run before it.
  return { kind: 'run', from, to: elementStart - 1, next: elementStart, last: false };
}
