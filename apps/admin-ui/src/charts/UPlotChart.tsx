// A uPlot chart as a React component: created on mount, given new data on change, resized with
// its box, destroyed on unmount. Legends and tables are React's; uPlot draws the canvas only.
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { withThemeColors } from './theme';

export interface UPlotChartProps {
  /** uPlot's options without width and height (taken from the box). */
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  height: number;
  /** Changes of this key rebuild the chart (other option changes are not followed). */
  layoutKey: string;
  className?: string;
}

/** The browser's colour scheme, followed as it changes. */
function useColorScheme(): 'light' | 'dark' {
  const query =
    typeof matchMedia === 'undefined' ? undefined : matchMedia('(prefers-color-scheme: dark)');
  const [dark, setDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const onChange = () => setDark(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [query?.media]);
  return dark ? 'dark' : 'light';
}

export function UPlotChart({ options, data, height, layoutKey, className }: UPlotChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const dataRef = useRef(data);
  dataRef.current = data;
  const theme = useColorScheme();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(200, el.clientWidth || 600);
    try {
      const options = optionsRef.current;
      plot.current = new uPlot(
        { ...options, axes: options.axes?.map(withThemeColors), width: width(), height },
        dataRef.current,
        el,
      );
    } catch {
      // A browser without a 2D canvas (jsdom): the legend and table still carry the numbers.
      plot.current = null;
    }
    const observer =
      typeof ResizeObserver === 'undefined'
        ? undefined
        : new ResizeObserver(() => plot.current?.setSize({ width: width(), height }));
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
    // The axes take the theme's colours when drawn: a change of theme draws the chart again.
  }, [layoutKey, height, theme]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  return <div ref={box} className={className} data-testid="uplot" />;
}
