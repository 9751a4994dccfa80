// Config durations are accepted the way Loki accepts them: Prometheus' model.Duration syntax
// (`1w`, `1d`, `1h30m`, `300ms`) and Go's time.Duration syntax (`1.5h`, `250us`), never
// negative. Results are milliseconds; printing is Prometheus' model.Duration.String.
import { modelParseDuration, timeParseDuration } from '@logsvc/gocompat';

/** Parses a config duration into milliseconds, or returns undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  try {
    return modelParseDuration(s);
  } catch {
    // Not Prometheus syntax: try Go's.
  }
  if (s.startsWith('-') || s.startsWith('+')) return undefined;
  try {
    return Number(timeParseDuration(s)) / 1e6;
  } catch {
    return undefined;
  }
}
