import { useMemo } from 'react';
import type uPlot from 'uplot';
import { seriesColor } from './colors';
import { themedAxis } from './theme';
import { UPlotChart } from './UPlotChart';

/** A small live chart of one value over time; its latest value is in the text beside it. */
export function Sparkline(props: {
  label: string;
  times: number[];
  values: (number | null)[];
  format: (v: number) => string;
  index: number;
}) {
  const data = useMemo(
    () => [props.times, props.values] as uPlot.AlignedData,
    [props.times, props.values],
  );
  const latest = [...props.values].reverse().find((v): v is number => v !== null);
  const options: Omit<uPlot.Options, 'width' | 'height'> = {
    legend: { show: false },
    cursor: { show: false },
    axes: [
      themedAxis({ show: false }),
      themedAxis({
        size: 56,
        values: (_u, ticks) => ticks.map(props.format),
        ticks: { show: false },
      }),
    ],
    scales: { y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    series: [
      {},
      { stroke: seriesColor(props.index), width: 1.5, fill: `${seriesColor(props.index)}33` },
    ],
  };
  return (
    <figure className="spark-card">
      <figcaption>
        <span>{props.label}</span>{' '}
        <strong>{latest === undefined ? '…' : props.format(latest)}</strong>
      </figcaption>
      <div
        role="img"
        aria-label={`${props.label}: ${latest === undefined ? 'no value yet' : props.format(latest)}`}
      >
        <UPlotChart
          options={options}
          data={data}
          height={70}
          layoutKey={props.label}
          className="spark"
        />
      </div>
    </figure>
  );
}
