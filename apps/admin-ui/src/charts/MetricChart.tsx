import type { MatrixItem } from '@logsvc/api/browser';
import { useMemo, useState } from 'react';
import type uPlot from 'uplot';
import { formatLabels, formatNumber } from '../lib/format';
import { seriesColor } from './colors';
import { themedAxis } from './theme';
import { UPlotChart } from './UPlotChart';

/** At most this many series are drawn and listed (the rest are counted). */
const MAX_SERIES = 50;

/** The series of a range query on one time axis (seconds), missing points as null. */
export function alignSeries(series: MatrixItem[]): uPlot.AlignedData {
  const times = [...new Set(series.flatMap((s) => s.values.map(([t]) => t)))].sort((a, b) => a - b);
  const index = new Map(times.map((t, i) => [t, i]));
  const columns = series.map((s) => {
    const col: (number | null)[] = times.map(() => null);
    for (const [t, v] of s.values) col[index.get(t)!] = Number(v);
    return col;
  });
  return [times, ...columns];
}

/** A metric query's result: a time series chart with its legend, or the same as a table. */
export function MetricChart({ series }: { series: MatrixItem[] }) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const shown = series.slice(0, MAX_SERIES);
  const data = useMemo(() => alignSeries(shown), [series]);
  const names = shown.map((s) => formatLabels(s.metric));
  const options: Omit<uPlot.Options, 'width' | 'height'> = {
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    axes: [themedAxis(), themedAxis({ values: (_u, ticks) => ticks.map(formatNumber), size: 60 })],
    series: [
      {},
      ...names.map((label, i) => ({
        label,
        stroke: seriesColor(i),
        width: 1.5,
        points: { show: (data[0]?.length ?? 0) < 30 },
        value: (_u: uPlot, v: number | null) => (v === null ? '' : formatNumber(v)),
      })),
    ],
  };
  if (series.length === 0) return <p>The query returned no series in this range.</p>;
  const times = data[0] as number[];
  return (
    <figure className="metric-chart">
      <div className="row" role="group" aria-label="View">
        <button type="button" aria-pressed={view === 'chart'} onClick={() => setView('chart')}>
          Chart
        </button>
        <button type="button" aria-pressed={view === 'table'} onClick={() => setView('table')}>
          Table
        </button>
      </div>
      {view === 'chart' ? (
        <>
          <div
            role="img"
            aria-label={`Time series chart of ${shown.length} series over ${times.length} steps`}
          >
            <UPlotChart
              options={options}
              data={data}
              height={260}
              layoutKey={names.join('\n')}
              className="chart-canvas"
            />
          </div>
          <ul className="legend" aria-label="Legend">
            {names.map((name, i) => {
              const values = (data[i + 1] as (number | null)[]).filter(
                (v): v is number => v !== null,
              );
              const last = values[values.length - 1];
              return (
                <li key={name}>
                  <span className="swatch" style={{ background: seriesColor(i) }} />
                  <span className="code">{name}</span>
                  {last !== undefined && (
                    <span className="small muted">
                      {' '}
                      last {formatNumber(last)}, max {formatNumber(Math.max(...values))}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Metric query result, one column per series</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {names.map((n) => (
                  <th key={n} scope="col" className="code">
                    {n}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {times.map((t, row) => (
                <tr key={t}>
                  <th scope="row" className="small nowrap">
                    {new Date(t * 1000).toLocaleString()}
                  </th>
                  {names.map((n, i) => {
                    const v = (data[i + 1] as (number | null)[])[row];
                    return <td key={n}>{v === null || v === undefined ? '' : formatNumber(v)}</td>;
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {series.length > MAX_SERIES && (
        <figcaption className="small">
          Showing {MAX_SERIES} of {series.length} series.
        </figcaption>
      )}
    </figure>
  );
}
