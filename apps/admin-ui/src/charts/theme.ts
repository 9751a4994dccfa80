// Axis colours of the page's theme (light or dark), read from its CSS variables.
import type uPlot from 'uplot';

function cssVar(name: string, fallback: string): string {
  if (typeof getComputedStyle === 'undefined') return fallback;
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

/** An axis drawn in the theme's colours, with `values` formatting its ticks. */
export function themedAxis(over: uPlot.Axis = {}): uPlot.Axis {
  const fg = cssVar('--muted', '#59636e');
  const line = cssVar('--line', '#d0d7de');
  return {
    stroke: fg,
    grid: { stroke: line, width: 1 },
    ticks: { stroke: line, width: 1 },
    ...over,
  };
}
