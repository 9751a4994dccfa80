/** `format_query`: the canonical text of a query. */
import { parseExpr } from './parser';
import { prettyExpr } from './pretty';

/**
 * Parses and pretty-prints `text` (one line up to 100 characters, Loki's multi-line layout
 * beyond); throws ParseError for an invalid query (HTTP 400).
 */
export function formatQuery(text: string): string {
  return prettyExpr(parseExpr(text));
}
