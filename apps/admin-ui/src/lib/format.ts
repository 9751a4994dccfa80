// Numbers as the pages show them: `16`, `0.25`, `1,234.5`, never `1.6e+01`.

const plain = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
const small = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/** A sample value (number or Prometheus text such as `"1.6e+01"`, `"NaN"`, `"+Inf"`). */
export function formatNumber(value: number | string): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (Number.isNaN(n)) return typeof value === 'string' && value !== '' ? value : 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n !== 0 && Math.abs(n) < 0.001) return small.format(n);
  return plain.format(n);
}

/** Bytes as `512 B`, `1.5 KiB`, `3.2 MiB`, `1.1 GiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)} ${units[u]}`;
}

/** `{app="web", level="error"}` of a series' labels, `{}` for none. */
export function formatLabels(labels: Record<string, string>): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return `{${parts.join(', ')}}`;
}
