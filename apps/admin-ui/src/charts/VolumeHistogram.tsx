import type { MatrixItem } from '@logsvc/api/browser';
import { useMemo } from 'react';
import uPlot from 'uplot';
import { formatNumber } from '../lib/format';
import { levelColor } from './colors';
import { histogramData, stackedColumns } from './histogram-data';
import { themedAxis } from './theme';
import { UPlotChart } from './UPlotChart';

export interface VolumeHistogramProps {
  series: MatrixItem[];
  startMs: number;
  endMs: number;
  stepSeconds: number;
  /** Called with the range dragged over (ms). */
  onZoom?: (startMs: number, endMs: number) => void;
}

/**
 * Lines per step over exactly the chosen range, stacked by detected_level, with time and count
 * axes; dragging over it zooms to that range. The numbers are in the label and the legend.
 */
export function VolumeHistogram({
  series,
  startMs,
  endMs,
  stepSeconds,
  onZoom,
}: VolumeHistogramProps) {
  const startS = startMs / 1000;
  const endS = endMs / 1000;
  const hist = useMemo(
    () => histogramData(series, startS, endS, stepSeconds),
    [series, startS, endS, stepSeconds],
  );
  const data = useMemo(() => [hist.times, ...stackedColumns(hist)] as uPlot.AlignedData, [hist]);
  const max = Math.max(
    0,
    ...hist.times.map((_, j) => hist.levels.reduce((n, l) => n + l.counts[j]!, 0)),
  );
  const bars = uPlot.paths.bars?.({ size: [0.9, 80], align: -1 });
  const zoom = onZoom;
  const options: Omit<uPlot.Options, 'width' | 'height'> = {
    legend: { show: false },
    scales: {
      x: { time: true, range: () => [startS, endS] },
      y: { range: (_u, _min, dataMax) => [0, Math.max(1, dataMax)] },
    },
    cursor: { drag: { x: true, y: false, setScale: false }, points: { show: false } },
    select: { show: true, left: 0, top: 0, width: 0, height: 0 },
    axes: [
      themedAxis(),
      themedAxis({
        size: 50,
        values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? formatNumber(t) : '')),
      }),
    ],
    series: [
      {},
      ...hist.levels.map((l) => ({
        label: l.level,
        fill: levelColor(l.level),
        stroke: levelColor(l.level),
        width: 0,
        paths: bars,
        points: { show: false },
      })),
    ],
    hooks: {
      setSelect: [
        (u: uPlot) => {
          if (!zoom || u.select.width < 3) return;
          const from = u.posToVal(u.select.left, 'x');
          const to = u.posToVal(u.select.left + u.select.width, 'x');
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          zoom(Math.round(from * 1000), Math.round(to * 1000));
        },
      ],
    },
  };
  const summary = hist.levels.map((l) => `${l.level} ${formatNumber(l.total)}`).join(', ');
  return (
    <figure className="histogram" data-start={startMs} data-end={endMs} data-step={stepSeconds}>
      <div
        role="img"
        aria-label={
          `${formatNumber(hist.total)} lines from ${new Date(startMs).toLocaleString()} to ` +
          `${new Date(endMs).toLocaleString()} in ${hist.times.length} steps of ${stepSeconds}s, ` +
          `at most ${formatNumber(max)} per step` +
          (summary ? `: ${summary}` : '')
        }
      >
        <UPlotChart
          options={options}
          data={data}
          height={140}
          layoutKey={`${startS} ${endS} ${hist.levels.map((l) => l.level).join(',')}`}
          className="chart-canvas"
        />
      </div>
      <figcaption className="small">
        <ul className="legend inline" aria-label="Levels">
          {hist.levels.map((l) => (
            <li key={l.level}>
              <span className="swatch" style={{ background: levelColor(l.level) }} />
              {l.level} {formatNumber(l.total)}
            </li>
          ))}
        </ul>
        {formatNumber(hist.total)} lines, {stepSeconds}s per bar
        {onZoom ? '; drag over the chart to zoom in' : ''}
      </figcaption>
    </figure>
  );
}
