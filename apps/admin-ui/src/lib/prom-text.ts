// Prometheus' text exposition format, as far as the node page reads it: samples by name.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Every sample of a `/metrics` text (comments and bad lines skipped). */
export function parsePromText(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, '$1');
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/**
 * The sum of the first of `names` that has samples (matching `where`), or undefined when none
 * has any: so an instance without that component shows no chart rather than a flat zero.
 */
export function sumOf(
  samples: readonly Sample[],
  names: readonly string[],
  where: (labels: Record<string, string>) => boolean = () => true,
): number | undefined {
  for (const name of names) {
    const found = samples.filter((s) => s.name === name && where(s.labels));
    if (found.length > 0) return found.reduce((n, s) => n + s.value, 0);
  }
  return undefined;
}
