import { type Labels, labelsToRecord } from '@logsvc/api';
import { goFormatFloat } from '@logsvc/gocompat';
import { goJson } from './json';

/** A timestamp as Loki writes sample times: milliseconds / 1000, e.g. `1588889221.5`. */
export function sampleTime(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const whole = ms / 1000n;
  const frac = ms % 1000n;
  if (frac === 0n) return whole.toString();
  const sign = ms < 0n && whole === 0n ? '-' : '';
  const f = (frac < 0n ? -frac : frac).toString().padStart(3, '0').replace(/0+$/, '');
  return `${sign}${whole}.${f}`;
}

/** `[<seconds>,"<value>"]` */
export function samplePair(ns: bigint, value: number): string {
  return `[${sampleTime(ns)},${JSON.stringify(goFormatFloat(value))}]`;
}

export interface Sample {
  readonly ns: bigint;
  readonly value: number;
}

/** `{"metric":{...},"value":[t,"v"]}` */
export function vectorItem(labels: Labels, sample: Sample): string {
  return `{"metric":${goJson(labelsToRecord(labels))},"value":${samplePair(sample.ns, sample.value)}}`;
}

/** `{"metric":{...},"values":[[t,"v"],...]}` */
export function matrixItem(labels: Labels, samples: readonly Sample[]): string {
  const values = samples.map((s) => samplePair(s.ns, s.value)).join(',');
  return `{"metric":${goJson(labelsToRecord(labels))},"values":[${values}]}`;
}
