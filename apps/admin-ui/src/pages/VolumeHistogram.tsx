import type { MatrixItem } from '@logsvc/api/browser';

/** Lines per step over the time range, as bars; the summary is in the label for screen readers. */
export function VolumeHistogram({
  series,
  stepSeconds,
}: {
  series: MatrixItem[];
  stepSeconds: number;
}) {
  const totals = new Map<number, number>();
  for (const s of series)
    for (const [t, v] of s.values) totals.set(t, (totals.get(t) ?? 0) + Number(v));
  const points = [...totals.entries()].sort((a, b) => a[0] - b[0]);
  const total = points.reduce((n, [, v]) => n + v, 0);
  const max = Math.max(1, ...points.map(([, v]) => v));
  const width = 800;
  const height = 100;
  const first = points[0]?.[0] ?? 0;
  const last = points[points.length - 1]?.[0] ?? first;
  const span = Math.max(stepSeconds, last - first + stepSeconds);
  const barWidth = Math.max(1, (stepSeconds / span) * width - 1);
  return (
    <figure className="histogram">
      <svg
        role="img"
        aria-label={`${total} lines in ${points.length} steps of ${stepSeconds}s, at most ${max} per step`}
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
      >
        {points.map(([t, v]) => (
          <rect
            key={t}
            className="bar"
            x={((t - first) / span) * width}
            y={height - (v / max) * height}
            width={barWidth}
            height={(v / max) * height}
          >
            <title>{`${new Date(t * 1000).toLocaleString()}: ${v}`}</title>
          </rect>
        ))}
      </svg>
      <figcaption className="small">
        {total} lines, {stepSeconds}s per bar
      </figcaption>
    </figure>
  );
}
