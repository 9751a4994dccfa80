import { PARAM } from './line-tokenizer';

/**
 * Runs of `<_><_>...` become one `<_>`, as Loki's deduplicatePlaceholders does (with its
 * exact scan, which leaves a run alone when it ends in the last two characters' reach).
 */
export function deduplicatePlaceholders(line: string): string {
  const first = line.indexOf(PARAM + PARAM);
  if (first === -1) return line;
  let out = '';
  let low = 0;
  for (let i = first; i < line.length - 5; i++) {
    if (line.startsWith(PARAM, i)) {
      let high = i + 3;
      for (; high < line.length - 2; high += 3) {
        if (!line.startsWith(PARAM, high)) break;
      }
      out += line.slice(low, i + 3);
      low = high;
      i = high;
    }
  }
  return out + line.slice(low);
}
