/**
 * The ring cannot serve an operation: empty, or too few healthy replicas for a quorum. The texts
 * are dskit's; the HTTP layer answers 5xx with them.
 */
export class RingError extends Error {
  override readonly name = 'RingError';
}
