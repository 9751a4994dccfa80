// Series colours: the log levels as Grafana colours them, and a palette for other series.

const LEVEL_COLORS: Record<string, string> = {
  critical: '#a352cc',
  fatal: '#a352cc',
  error: '#e02f44',
  warn: '#ff9830',
  warning: '#ff9830',
  info: '#56a64b',
  debug: '#3274d9',
  trace: '#8ab8ff',
  unknown: '#8e8e8e',
};

/** Order of levels from the most to the least severe; others after. */
export const LEVEL_ORDER = [
  'critical',
  'fatal',
  'error',
  'warn',
  'warning',
  'info',
  'debug',
  'trace',
];

export function levelColor(level: string): string {
  return LEVEL_COLORS[level.toLowerCase()] ?? '#8e8e8e';
}

const PALETTE = [
  '#3274d9',
  '#56a64b',
  '#ff9830',
  '#e02f44',
  '#a352cc',
  '#37872d',
  '#8ab8ff',
  '#f2cc0c',
  '#fa6400',
  '#8f3bb8',
];

export function seriesColor(i: number): string {
  return PALETTE[i % PALETTE.length]!;
}
