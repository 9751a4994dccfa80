import type { IncomingHttpHeaders } from 'node:http';

/** The encoding flag Grafana sends to get label categories per entry. */
export const CATEGORIZE_LABELS = 'categorize-labels';

const ENCODING_FLAGS_HEADERS = [
  'x-loki-response-encoding-flags',
  'x-logsvc-response-encoding-flags',
];

/**
 * Whether a query or tail request asks for label categories
 * (`X-Loki-Response-Encoding-Flags: categorize-labels`, a comma-separated list of flags).
 */
export function wantsCategories(headers: IncomingHttpHeaders): boolean {
  return ENCODING_FLAGS_HEADERS.some((h) => {
    const v = headers[h];
    const text = Array.isArray(v) ? v.join(',') : (v ?? '');
    return text.split(',').some((f) => f.trim() === CATEGORIZE_LABELS);
  });
}
