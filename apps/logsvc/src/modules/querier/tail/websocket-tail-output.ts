import { ParamError, TailLimitError, type TailFrame, type TailOutput } from '@logsvc/querier';
import type { WebSocket } from 'ws';

/** Close code Loki uses for every error (`websocket.CloseInternalServerErr`). */
export const CLOSE_INTERNAL_ERROR = 1011;
/** A close reason is at most 123 bytes (a control frame carries 125, 2 are the code). */
const MAX_CLOSE_REASON_BYTES = 123;

/**
 * The text Loki closes with: its querier's refusals are httpgrpc errors, whose text carries
 * the gRPC status prefix (`rpc error: code = Code(400) desc = ...`); other errors are as is.
 */
export function tailCloseReason(err: Error): string {
  const text =
    err instanceof TailLimitError || err instanceof ParamError
      ? `rpc error: code = Code(${err.httpStatus}) desc = ${err.message}`
      : err.message;
  const bytes = Buffer.from(text);
  return bytes.length <= MAX_CLOSE_REASON_BYTES
    ? text
    : bytes
        .subarray(0, MAX_CLOSE_REASON_BYTES)
        .toString()
        .replace(/\uFFFD+$/, '');
}

/** A tail's messages written to a WebSocket, encoded by `encode` (v1 or legacy JSON). */
export class WebSocketTailOutput implements TailOutput {
  constructor(
    private readonly socket: WebSocket,
    private readonly encode: (frame: TailFrame) => string,
  ) {}

  bufferedBytes(): number {
    return this.socket.bufferedAmount;
  }

  send(frame: TailFrame): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(this.encode(frame));
  }

  fail(err: Error): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.close(CLOSE_INTERNAL_ERROR, tailCloseReason(err));
  }
}
