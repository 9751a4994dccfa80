// The ring status page (`/ring`, `/distributor/ring`, …): dskit's ring_http.go, as JSON data
// and as its HTML page.

import type { RingStatus, RingStatusShard } from '@logsvc/api';
import { formatRfc3339Nano, goDurationString } from '@logsvc/gocompat';
import { isHeartbeatHealthy } from './instance-health';
import { Ring } from './ring';
import type { RingDesc } from './types';

/** Go's zero time.Time, which dskit shows for an unknown registration time. */
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

export interface RingStatusOptions {
  readonly now: number;
  readonly heartbeatTimeoutMs: number;
}

/** The page's data: every member sorted by id, `UNHEALTHY` for a member past its heartbeat. */
export function ringStatus(
  desc: RingDesc,
  { now, heartbeatTimeoutMs }: RingStatusOptions,
): RingStatus {
  // Ownership does not depend on the replication factor or health.
  const ring = new Ring(desc, { replicationFactor: 1, heartbeatTimeoutMs, now: () => now });
  const ownership = ring.ownership();
  const shards = ring.instances().map((i): RingStatusShard => {
    const healthy = isHeartbeatHealthy(i, now, heartbeatTimeoutMs);
    return {
      id: i.id,
      state: healthy ? i.state : 'UNHEALTHY',
      address: i.addr,
      timestamp: timeText(i.heartbeatMs),
      registered_timestamp: i.registeredMs === 0 ? GO_ZERO_TIME : timeText(i.registeredMs),
      read_only: false,
      read_only_updated_timestamp: GO_ZERO_TIME,
      zone: i.zone,
      tokens: i.tokens,
      num_tokens: i.tokens.length,
      ownership: (ownership.get(i.id) ?? 0) * 100,
      healthy,
      heartbeat_age_ms: now - i.heartbeatMs,
    };
  });
  return { shards, now: timeText(now) };
}

export interface RingPageOptions {
  /** The page's heading and title, e.g. `Ingester Ring Status`. */
  readonly title: string;
  /** Where the Forget form posts `forget=<id>`; the page's own URL when unset. */
  readonly forgetPath?: string;
  /** List every member's tokens (the page's `?tokens=true`). */
  readonly showTokens?: boolean;
}

/**
 * The status page as a complete HTML document: one row per member, a Forget button for the
 * unhealthy ones, and the Show/Hide Tokens link. Every value is escaped.
 */
export function renderRingPage(status: RingStatus, options: RingPageOptions): string {
  const title = escapeHtml(options.title);
  const rows = status.shards.map(
    (s, n) => `<tr${n % 2 === 0 ? '' : ' bgcolor="#BEBEBE"'}>
<td>${escapeHtml(s.id)}</td>
<td>${escapeHtml(s.zone)}</td>
<td>${escapeHtml(s.state)}</td>
<td>${escapeHtml(s.address)}</td>
<td>${s.registered_timestamp === GO_ZERO_TIME ? '' : escapeHtml(rfc3339Seconds(s.registered_timestamp))}</td>
<td>${escapeHtml(ageText(s.heartbeat_age_ms))} ago (${escapeHtml(clockText(s.timestamp))})</td>
<td>${s.num_tokens}</td>
<td>${escapeHtml(formatG3(s.ownership))}%</td>
<td>${s.healthy ? '' : `<button name="forget" value="${escapeHtml(s.id)}" type="submit">Forget</button>`}</td>
</tr>`,
  );
  const tokens = options.showTokens
    ? status.shards.map(
        (s) => `<h2>Instance: ${escapeHtml(s.id)}</h2>\n<p>Tokens:<br/>\n${s.tokens.join(' ')}</p>`,
      )
    : [];
  const toggle = options.showTokens
    ? '<a href="?tokens=false">Hide Tokens</a>'
    : '<a href="?tokens=true">Show Tokens</a>';
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="UTF-8">
<title>${title}</title>
</head>
<body>
<h1>${title}</h1>
<p>Current time: ${escapeHtml(status.now)}</p>
<form action="${escapeHtml(options.forgetPath ?? '')}" method="POST">
<table width="100%" border="1">
<thead>
<tr>
<th>Instance ID</th>
<th>Availability Zone</th>
<th>State</th>
<th>Address</th>
<th>Registered At</th>
<th>Last Heartbeat</th>
<th>Tokens</th>
<th>Ownership</th>
<th>Actions</th>
</tr>
</thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</form>
<p>${toggle}</p>
${tokens.join('\n')}
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function timeText(ms: number): string {
  return formatRfc3339Nano(BigInt(Math.trunc(ms)) * 1_000_000n);
}

/** `2025-01-01T10:00:00.5Z` → `2025-01-01T10:00:00Z` (Go's time.RFC3339). */
function rfc3339Seconds(time: string): string {
  return time.replace(/\.\d+Z$/, 'Z');
}

/** Time since the heartbeat, truncated to seconds, as Go prints a duration (`1m5s`). */
function ageText(ms: number): string {
  return goDurationString(BigInt(Math.trunc(Math.max(ms, 0) / 1000)) * 1_000_000_000n);
}

/** The clock of an RFC 3339 time as Go's `15:04:05.999`: milliseconds, trailing zeros cut. */
function clockText(time: string): string {
  const clock = time.slice(11, 19);
  const fraction = /\.(\d+)Z$/.exec(time)?.[1].slice(0, 3).replace(/0+$/, '') ?? '';
  return fraction === '' ? clock : `${clock}.${fraction}`;
}

/** Go's `%.3g`: three significant digits, trailing zeros cut, exponent form outside 1e-4..1e3. */
function formatG3(value: number): string {
  if (value === 0) return '0';
  const [mantissa, exp] = value.toExponential(2).split('e');
  const exponent = Number(exp);
  const trim = (s: string): string => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);
  if (exponent < -4 || exponent >= 3) {
    const sign = exponent < 0 ? '-' : '+';
    return `${trim(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return trim(value.toFixed(2 - exponent));
}
