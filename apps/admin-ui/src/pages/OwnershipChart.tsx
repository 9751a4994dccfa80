import type { RingStatusShard } from '@logsvc/api/browser';

/** Token ownership per member as horizontal bars (the table beside it has the numbers). */
export function OwnershipChart({ shards }: { shards: readonly RingStatusShard[] }) {
  const rowHeight = 22;
  const labelWidth = 180;
  const width = 560;
  const barWidth = width - labelWidth - 60;
  const max = Math.max(1, ...shards.map((s) => s.ownership));
  const summary = shards.map((s) => `${s.id} ${s.ownership.toFixed(1)}%`).join(', ');
  return (
    <svg
      className="chart"
      role="img"
      aria-label={`Token ownership: ${summary}`}
      viewBox={`0 0 ${width} ${Math.max(rowHeight, shards.length * rowHeight)}`}
      width={width}
    >
      {shards.map((s, i) => {
        const w = (s.ownership / max) * barWidth;
        return (
          <g key={s.id} transform={`translate(0 ${i * rowHeight})`}>
            <text x={labelWidth - 6} y={15} textAnchor="end" className="chart-label">
              {s.id.length > 24 ? `${s.id.slice(0, 23)}…` : s.id}
            </text>
            <rect
              x={labelWidth}
              y={3}
              width={Math.max(1, w)}
              height={rowHeight - 6}
              className={s.healthy ? 'bar' : 'bar bad'}
            />
            <text x={labelWidth + w + 6} y={15} className="chart-label">
              {s.ownership.toFixed(1)}%
            </text>
          </g>
        );
      })}
    </svg>
  );
}
