// Axis colours of the page's theme (light or dark), read from its CSS variables when a chart is
// drawn (UPlotChart draws again when the theme changes).
import type uPlot from 'uplot';

function cssVar(name: string, fallback: string): string {
  if (typeof getComputedStyle === 'undefined') return fallback;
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

/** An axis with thin grid lines and ticks; its colours are the theme's (`withThemeColors`). */
export function themedAxis(over: uPlot.Axis = {}): uPlot.Axis {
  return { grid: { width: 1 }, ticks: { width: 1 }, ...over };
}

/** The axis in the colours of the theme in force now. */
export function withThemeColors(axis: uPlot.Axis): uPlot.Axis {
  const fg = cssVar('--muted', '#59636e');
  const line = cssVar('--line', '#d0d7de');
  return {
    ...axis,
    stroke: fg,
    grid: { ...axis.grid, stroke: line },
    ticks: { ...axis.ticks, stroke: line },
  };
}
