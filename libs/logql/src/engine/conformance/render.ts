/**
 * Puts expected and actual answers of a conformance eval in one canonical text form, one
 * line per sample, series or entry, so that they compare line by line (numbers with a
 * tolerance) and a mismatch reads as a diff.
 */
import { goQuote, labelsToString, readGoString, type Labels, type QueryResult } from '@logsvc/api';
import { formatSampleValue } from '../metrics/format';
import { canonicalLabels, durationNs, readBraces, type FixtureEval } from './fixture';

const NS_PER_MS = 1_000_000n;

/** The fixture's time zero, 2024-01-01T00:00:00Z, in nanoseconds. */
export const EPOCH_NS = 1_704_067_200_000_000_000n;

/** An offset in the shortest exact unit: `10s`, `1500ms`, `7ns`. */
export function formatOffset(ns: bigint): string {
  if (ns % 1_000_000_000n === 0n) return `${ns / 1_000_000_000n}s`;
  if (ns % NS_PER_MS === 0n) return `${ns / NS_PER_MS}ms`;
  return `${ns}ns`;
}

function errorLine(message: string): string {
  return `error ${message.replace(/\n/g, '\\n')}`;
}

/** The actual outcome of an eval (a result, or the error it threw) in canonical lines. */
export function renderActual(ev: FixtureEval, outcome: QueryResult | Error): string[] {
  if (outcome instanceof Error) return [errorLine(outcome.message)];
  const wanted =
    ev.kind === 'instant' ? ['vector', 'scalar'] : [ev.kind === 'range' ? 'matrix' : 'streams'];
  if (!wanted.includes(outcome.type)) return [`type ${outcome.type}`];
  switch (outcome.type) {
    case 'scalar':
      return [`scalar ${formatSampleValue(outcome.value)}`];
    case 'vector': {
      const at = ev.kind === 'instant' ? ev.atNs : 0n;
      const atMs = Number((EPOCH_NS + at) / NS_PER_MS);
      return emptyOr(
        outcome.samples.map((s) =>
          s.timestampMs === atMs
            ? `${labelsToString(s.labels)} ${formatSampleValue(s.value)}`
            : `${labelsToString(s.labels)} @${s.timestampMs}ms?`,
        ),
      );
    }
    case 'matrix':
      return emptyOr(outcome.series.map((s) => renderSeries(ev, s.labels, s.points)));
    case 'streams': {
      const lines: string[] = [];
      for (const s of outcome.streams) {
        for (const e of s.entries) {
          const ts = formatOffset(e[0] - EPOCH_NS);
          const cats =
            e[2] === undefined ? '' : renderCategories(e[2].structuredMetadata, e[2].parsed);
          lines.push(`${labelsToString(s.labels)} ${ts} ${goQuote(e[1])}${cats}`);
        }
      }
      return emptyOr(lines);
    }
  }
}

function renderCategories(meta: Labels | undefined, parsed: Labels | undefined): string {
  let out = '';
  if (meta !== undefined && meta.length > 0) out += ` meta${labelsToString(meta)}`;
  if (parsed !== undefined && parsed.length > 0) out += ` parsed${labelsToString(parsed)}`;
  return out;
}

function renderSeries(
  ev: FixtureEval,
  labels: Labels,
  points: ReadonlyArray<readonly [number, number]>,
): string {
  if (ev.kind !== 'range') return labelsToString(labels);
  const byMs = new Map(points.map(([t, v]) => [t, v]));
  const values: string[] = [];
  for (let t = ev.fromNs; t <= ev.toNs; t += ev.stepNs) {
    const ms = Number((EPOCH_NS + t) / NS_PER_MS);
    const v = byMs.get(ms);
    byMs.delete(ms);
    values.push(v === undefined ? '.' : formatSampleValue(v));
  }
  for (const ms of byMs.keys()) values.push(`@${ms}ms?`);
  return `${labelsToString(labels)} ${values.join(' ')}`;
}

function emptyOr(lines: string[]): string[] {
  return lines.length === 0 ? ['empty'] : lines;
}

/** The eval's expected block in canonical lines (labels sorted, repeats expanded). */
export function renderExpected(ev: FixtureEval): string[] {
  return ev.expected.map((line) => {
    if (line === 'empty' || line.startsWith('error ') || line.startsWith('scalar ')) return line;
    if (!line.startsWith('{')) throw new Error(`bad expected line ${JSON.stringify(line)}`);
    const sel = readBraces(line, 0);
    const labels = canonicalLabels(sel.text);
    const rest = line.slice(sel.end).trim();
    if (ev.kind === 'logs') return `${labels} ${renderExpectedEntry(rest)}`;
    const values = rest.split(/\s+/).flatMap(expandRepeat);
    return `${labels} ${values.join(' ')}`;
  });
}

/** `3*4` → `3 3 3 3`. */
function expandRepeat(token: string): string[] {
  const m = /^(.+)\*(\d+)$/.exec(token);
  return m === null ? [token] : Array<string>(Number(m[2])).fill(m[1]);
}

function renderExpectedEntry(text: string): string {
  const sp = text.indexOf(' ');
  const ts = formatOffset(durationNs(text.slice(0, sp)));
  let pos = sp + 1;
  while (text[pos] === ' ') pos++;
  const str = readGoString(text, pos);
  let out = `${ts} ${goQuote(str.value)}`;
  let rest = text.slice(str.end).trim();
  for (const cat of ['meta', 'parsed']) {
    if (!rest.startsWith(cat + '{')) continue;
    const b = readBraces(rest, cat.length);
    out += ` ${cat}${canonicalLabels(b.text)}`;
    rest = rest.slice(b.end).trim();
  }
  if (rest !== '') throw new Error(`unexpected ${JSON.stringify(rest)} in an expected entry`);
  return out;
}

/** Whether two canonical lines agree: same text, numbers within a relative 1e-9. */
export function linesMatch(expected: string, actual: string): boolean {
  if (expected === actual) return true;
  if (expected.startsWith('error ')) {
    return actual.startsWith('error ') && actual.includes(expected.slice('error '.length));
  }
  const e = splitValues(expected);
  const a = splitValues(actual);
  if (e.head !== a.head || e.values.length !== a.values.length) return false;
  return e.values.every((v, i) => valuesMatch(v, a.values[i]));
}

function splitValues(line: string): { head: string; values: string[] } {
  const close = line.startsWith('{') ? readBraces(line, 0).end : line.indexOf(' ');
  return { head: line.slice(0, close), values: line.slice(close).trim().split(/\s+/) };
}

function valuesMatch(e: string, a: string): boolean {
  if (e === a) return true;
  const x = parseValue(e);
  const y = parseValue(a);
  if (x === undefined || y === undefined) return false;
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return x === y;
  const diff = Math.abs(x - y);
  return diff <= 1e-12 || diff <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
}

function parseValue(v: string): number | undefined {
  if (v === 'NaN') return NaN;
  if (v === '+Inf' || v === 'Inf') return Infinity;
  if (v === '-Inf') return -Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v)) return undefined;
  return Number(v);
}
