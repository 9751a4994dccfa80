// Response types of the log deletion endpoints (served under /logsvc/api/v1/delete and
// /loki/api/v1/delete), shared with the admin UI that lists and cancels delete requests.

/** Loki's status texts: `received`, `processed`, or `<N>% Complete` for a split request. */
export type DeleteRequestStatus = 'received' | 'processed' | `${number}% Complete`;

/**
 * One entry of `GET /loki/api/v1/delete` (a JSON array of these, oldest first), exactly Loki's
 * fields: times are Unix seconds with a millisecond fraction.
 */
export interface DeleteRequestListItem {
  request_id: string;
  start_time: number;
  end_time: number;
  query: string;
  status: DeleteRequestStatus;
  created_at: number;
}

/**
 * One entry of `GET /logsvc/api/v1/delete/progress` (logsvc only): how far the compactor got
 * with a request, for the admin UI.
 */
export interface DeleteRequestProgress {
  request_id: string;
  status: DeleteRequestStatus;
  /** Whether the request can still be canceled without `force=true`. */
  cancelable: boolean;
  /** Unix seconds when the compactor may pick it up (created_at + delete_request_cancel_period). */
  process_after: number;
  tables_total: number;
  tables_done: number;
  /**
   * Chunks the request touches, counted from the index when the compactor picked it up (a
   * chunk indexed in two tables counts twice, as in `chunks_processed`); null before.
   */
  chunks_total: number | null;
  series_processed: number;
  chunks_processed: number;
  chunks_rewritten: number;
  chunks_deleted: number;
  lines_deleted: number;
}
