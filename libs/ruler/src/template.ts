// Prometheus' alert templates (template.NewTemplateExpander): Go text/template with `$labels`,
// `$externalLabels`, `$externalURL` and `$value` defined, and Prometheus' functions.
import { template as tpl } from '@logsvc/logql';

type Value = tpl.Value;

function toFloat(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    const n = Number(v.trim());
    if (v.trim() === '' || Number.isNaN(n)) {
      if (/^[+-]?(inf|infinity)$/i.test(v.trim()))
        return v.trim().startsWith('-') ? -Infinity : Infinity;
      if (/^nan$/i.test(v.trim())) return NaN;
      throw new tpl.FuncError(`strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax`);
    }
    return n;
  }
  if (v instanceof Object && 'type' in v && 'v' in v && typeof v.v === 'bigint') return Number(v.v);
  throw new tpl.FuncError(`can't convert ${tpl.formatValue(v)} to float`);
}

const g4 = (v: number) => tpl.sprintf('%.4g', [v]);

export function humanize(v: number): string {
  if (v === 0 || !Number.isFinite(v)) return g4(v);
  let prefix = '';
  if (Math.abs(v) >= 1) {
    for (const p of ['k', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y']) {
      if (Math.abs(v) < 1000) break;
      prefix = p;
      v /= 1000;
    }
  } else {
    for (const p of ['m', 'u', 'n', 'p', 'f', 'a', 'z', 'y']) {
      if (Math.abs(v) >= 1) break;
      prefix = p;
      v *= 1000;
    }
  }
  return g4(v) + prefix;
}

export function humanize1024(v: number): string {
  if (Math.abs(v) <= 1 || !Number.isFinite(v)) return g4(v);
  let prefix = '';
  for (const p of ['ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'Zi', 'Yi']) {
    if (Math.abs(v) < 1024) break;
    prefix = p;
    v /= 1024;
  }
  return g4(v) + prefix;
}

export function humanizeDuration(v: number): string {
  if (!Number.isFinite(v)) return g4(v);
  if (v === 0) return '0s';
  if (Math.abs(v) >= 1) {
    const sign = v < 0 ? '-' : '';
    v = Math.abs(v);
    const d = Math.trunc(v);
    const seconds = d % 60;
    const minutes = Math.trunc(d / 60) % 60;
    const hours = Math.trunc(d / 3600) % 24;
    const days = Math.trunc(d / 86400);
    if (days !== 0) return `${sign}${days}d ${hours}h ${minutes}m ${seconds}s`;
    if (hours !== 0) return `${sign}${hours}h ${minutes}m ${seconds}s`;
    if (minutes !== 0) return `${sign}${minutes}m ${seconds}s`;
    return `${sign}${g4(v)}s`;
  }
  let prefix = '';
  for (const p of ['m', 'u', 'n', 'p', 'f', 'a', 'z', 'y']) {
    if (Math.abs(v) >= 1) break;
    prefix = p;
    v *= 1000;
  }
  return `${g4(v)}${prefix}s`;
}

const S = 'string' as const;
const A = 'any' as const;
const fn = (params: tpl.FuncDef['params'], call: (a: Value[]) => Value): tpl.FuncDef => ({
  params,
  call,
});
const s = (a: Value[], i: number) => String(a[i]);

/** Prometheus' template functions that need no query access. */
export const PROMETHEUS_FUNCTIONS: tpl.FuncMap = new Map<string, tpl.FuncDef>([
  ['humanize', fn([A], (a) => humanize(toFloat(a[0])))],
  ['humanize1024', fn([A], (a) => humanize1024(toFloat(a[0])))],
  ['humanizeDuration', fn([A], (a) => humanizeDuration(toFloat(a[0])))],
  ['humanizePercentage', fn([A], (a) => tpl.sprintf('%.4g%%', [toFloat(a[0]) * 100]))],
  [
    'humanizeTimestamp',
    fn([A], (a) => {
      const v = toFloat(a[0]);
      if (!Number.isFinite(v)) return g4(v);
      const iso = new Date(v * 1000).toISOString().replace('T', ' ').replace('Z', '');
      return `${iso.replace(/\.?0+$/, '')} +0000 UTC`;
    }),
  ],
  ['toUpper', fn([S], (a) => s(a, 0).toUpperCase())],
  ['toLower', fn([S], (a) => s(a, 0).toLowerCase())],
  [
    'title',
    fn([S], (a) =>
      s(a, 0).replace(
        /(^|[^\p{L}\p{N}_'])(\p{L})/gu,
        (_m, p: string, c: string) => p + c.toUpperCase(),
      ),
    ),
  ],
  ['match', fn([S, S], (a) => tpl.compileRegex(s(a, 0)).test(s(a, 1)))],
  [
    'reReplaceAll',
    fn([S, S, S], (a) => tpl.replaceAll(tpl.compileRegex(s(a, 0)), s(a, 2), s(a, 1), false)),
  ],
  [
    'stripPort',
    fn([S], (a) => {
      const h = s(a, 0);
      const m = /^\[(.*)\]:\d*$/.exec(h) ?? /^([^:]*):\d*$/.exec(h);
      return m ? m[1] : h;
    }),
  ],
  ['safeHtml', fn([S], (a) => s(a, 0))],
]);

const DEFS =
  '{{$labels := .Labels}}{{$externalLabels := .ExternalLabels}}{{$externalURL := .ExternalURL}}{{$value := .Value}}';

export interface AlertTemplateData {
  readonly labels: Readonly<Record<string, string>>;
  readonly externalLabels: Readonly<Record<string, string>>;
  readonly externalURL: string;
  readonly value: number;
}

function templateName(alert: string): string {
  return `__alert_${alert}`;
}

/** Prometheus' ParseTest of one label or annotation template; throws TemplateError. */
export function checkAlertTemplate(alert: string, text: string): void {
  tpl.compileGoTemplate(DEFS + text, templateName(alert), PROMETHEUS_FUNCTIONS);
}

/**
 * Expands a label or annotation template for one alert; an error becomes
 * `<error expanding template: ...>`, as in Prometheus.
 */
export function expandAlertTemplate(alert: string, text: string, data: AlertTemplateData): string {
  try {
    const t = tpl.compileGoTemplate(DEFS + text, templateName(alert), PROMETHEUS_FUNCTIONS);
    const dot = new Map<string, Value>([
      ['Labels', new tpl.LabelMap(data.labels)],
      ['ExternalLabels', new tpl.LabelMap(data.externalLabels)],
      ['ExternalURL', data.externalURL],
      ['Value', data.value],
    ]);
    return t.execute(dot);
  } catch (err) {
    return `<error expanding template: ${err instanceof Error ? err.message : String(err)}>`;
  }
}
