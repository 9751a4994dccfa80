// Prometheus' alert templates (template.NewTemplateExpander): Go text/template with `$labels`,
// `$externalLabels`, `$externalURL` and `$value` defined, and Prometheus' functions.
import { isIP } from 'node:net';
import { GoSyntaxError, modelParseDuration } from '@logsvc/gocompat';
import * as tpl from '@logsvc/gotemplate';
import type { Sample } from './sample';

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
  ['stripDomain', fn([S], (a) => stripDomain(s(a, 0)))],
  ['first', fn([A], (a) => first(a[0]))],
  ['label', fn([S, A], (a) => sampleLabels(a[1], 'label').get(s(a, 0)))],
  ['value', fn([A], (a) => sampleField(a[0], 'value', 'Value'))],
  ['strvalue', fn([A], (a) => sampleLabels(a[0], 'strvalue').get('__value__'))],
  ['sortByLabel', fn([S, A], (a) => sortByLabel(s(a, 0), a[1]))],
  [
    'args',
    {
      params: [],
      variadic: A,
      call: (a) => new Map<string, Value>(a.map((v, i) => [`arg${i}`, v])),
    },
  ],
  ['graphLink', fn([S], (a) => `/graph?g0.expr=${goQueryEscape(s(a, 0))}&g0.tab=0`)],
  ['tableLink', fn([S], (a) => `/graph?g0.expr=${goQueryEscape(s(a, 0))}&g0.tab=1`)],
  ['toTime', fn([A], (a) => toTime(toFloat(a[0])))],
  ['parseDuration', fn([S], (a) => parseDuration(s(a, 0)))],
]);

/** A query result as templates see it: Prometheus' `[]*sample` of `.Labels` and `.Value`. */
function sampleValue(s: Sample): Value {
  return new Map<string, Value>([
    ['Labels', new tpl.LabelMap(s.labels)],
    ['Value', s.value],
  ]);
}

function isSample(v: Value): v is Map<string, Value> {
  return v instanceof Map && v.get('Labels') instanceof tpl.LabelMap;
}

function first(v: Value): Value {
  if (!Array.isArray(v))
    throw new tpl.FuncError(`first() needs a query result, got ${tpl.formatValue(v)}`);
  if (v.length === 0) throw new tpl.FuncError('first() called on vector with no elements');
  return v[0];
}

function sampleField(v: Value, fn: string, field: 'Labels' | 'Value'): Value {
  if (!isSample(v)) throw new tpl.FuncError(`${fn}() needs a sample, got ${tpl.formatValue(v)}`);
  return v.get(field);
}

function sampleLabels(v: Value, fn: string): tpl.LabelMap {
  return sampleField(v, fn, 'Labels') as tpl.LabelMap;
}

/** Prometheus' sortByLabel: a stable sort by one label's value (Go string order). */
function sortByLabel(label: string, v: Value): Value {
  if (!Array.isArray(v))
    throw new tpl.FuncError(`sortByLabel() needs a query result, got ${tpl.formatValue(v)}`);
  const key = (x: Value) => sampleLabels(x, 'sortByLabel').get(label);
  return [...v].sort((a, b) => tpl.compareGoStrings(key(a), key(b)));
}

/** Go's url.QueryEscape: space as `+`, every byte but `A-Za-z0-9-_.~` percent-encoded. */
function goQueryEscape(text: string): string {
  let out = '';
  for (const b of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Go's net.SplitHostPort, or null when the text has no port. */
function splitHostPort(hostPort: string): { host: string; port: string } | null {
  const m = /^\[([^\]]*)\]:([^:]*)$/.exec(hostPort) ?? /^([^:[\]]*):([^:]*)$/.exec(hostPort);
  return m ? { host: m[1], port: m[2] } : null;
}

/** Prometheus' stripDomain: a host name's first label, its port kept; IP addresses as given. */
function stripDomain(hostPort: string): string {
  const split = splitHostPort(hostPort);
  const host = split?.host ?? hostPort;
  if (isIP(host) !== 0) return hostPort;
  const name = host.split('.')[0];
  return split && split.port !== '' ? `${name}:${split.port}` : name;
}

/** Prometheus' toTime: seconds since the epoch as a UTC time, to the millisecond. */
function toTime(v: number): Value {
  if (!Number.isFinite(v)) throw new tpl.FuncError('value is NaN or Inf');
  const ns = v * 1e9;
  if (ns >= 2 ** 63 || ns < -(2 ** 63)) {
    throw new tpl.FuncError(
      `${tpl.formatValue(v)} cannot be represented as a nanoseconds timestamp since it overflows int64`,
    );
  }
  const ms = BigInt(Math.trunc(ns / 1e6));
  return tpl.GoTime.fromUnixNanos(ms * 1_000_000n, tpl.UTC);
}

/** Prometheus' parseDuration: a duration (`1h30m`, `2d`) in seconds. */
function parseDuration(text: string): number {
  try {
    return modelParseDuration(text) / 1000;
  } catch (err) {
    if (err instanceof GoSyntaxError) throw new tpl.FuncError(err.message);
    throw err;
  }
}

/**
 * What the `query` calls of an alert's templates read. Templates run synchronously, so the
 * queries are run first: an expansion records the queries it asked for and did not find
 * (`wanted`), the caller runs them and expands again (see `AlertingRule.prefetchQueries`).
 */
export class TemplateQueries {
  readonly results = new Map<string, readonly Sample[] | Error>();
  readonly wanted = new Set<string>();
}

/** The functions that read the alert's context: `query`, `externalURL`, `pathPrefix`. */
function contextFunctions(externalURL: string, queries?: TemplateQueries): tpl.FuncMap {
  return new Map<string, tpl.FuncDef>([
    [
      'query',
      fn([S], (a) => {
        const q = s(a, 0);
        if (queries === undefined) throw new tpl.FuncError('no query engine available');
        const result = queries.results.get(q);
        if (result instanceof Error) throw new tpl.FuncError(result.message);
        if (result !== undefined) return result.map(sampleValue);
        queries.wanted.add(q);
        return [];
      }),
    ],
    ['externalURL', fn([], () => externalURL)],
    ['pathPrefix', fn([], () => urlPath(externalURL))],
  ]);
}

/** The path of a URL, as Go's url.URL.Path; empty when the text is no URL with a path. */
function urlPath(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname).replace(/^\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    return '';
  }
}

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

function functionsFor(externalURL: string, queries?: TemplateQueries): tpl.FuncMap {
  return new Map([...PROMETHEUS_FUNCTIONS, ...contextFunctions(externalURL, queries)]);
}

/** Prometheus' ParseTest of one label or annotation template; throws TemplateError. */
export function checkAlertTemplate(alert: string, text: string): void {
  tpl.compileGoTemplate(DEFS + text, templateName(alert), functionsFor(''));
}

/**
 * Expands a label or annotation template for one alert; an error becomes
 * `<error expanding template: ...>`, as in Prometheus. `query` reads `queries`.
 */
export function expandAlertTemplate(
  alert: string,
  text: string,
  data: AlertTemplateData,
  queries?: TemplateQueries,
): string {
  try {
    const t = tpl.compileGoTemplate(
      DEFS + text,
      templateName(alert),
      functionsFor(data.externalURL, queries),
    );
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
