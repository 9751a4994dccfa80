const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * Formats millisecond timestamps as RFC 3339 and as nginx's `[dd/Mon/yyyy:HH:MM:SS +0000]`.
 * Consecutive lines mostly share the same second, so the second's prefix is cached.
 */
export class TimeFormatter {
  private second = -1;
  private isoPrefix = '';
  private nginxText = '';

  private load(ms: number): void {
    const second = Math.floor(ms / 1000);
    if (second === this.second) return;
    this.second = second;
    const d = new Date(second * 1000);
    this.isoPrefix = d.toISOString().slice(0, 19);
    this.nginxText =
      `${pad2(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:` +
      `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} +0000`;
  }

  /** `2026-11-22T09:07:06.123Z` */
  iso(ms: number): string {
    this.load(ms);
    const frac = Math.floor(ms) % 1000;
    return `${this.isoPrefix}.${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}Z`;
  }

  /** `22/Nov/2026:09:07:06 +0000` */
  nginx(ms: number): string {
    this.load(ms);
    return this.nginxText;
  }
}
