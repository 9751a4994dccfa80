/**
 * Entries the streaming decoders decode at a time: a longer stream comes out in pieces with
 * the same labels, so a caller can give the event loop a turn between them.
 */
export const STREAM_PIECE_ENTRIES = 10_000;
