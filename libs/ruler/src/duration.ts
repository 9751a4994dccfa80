// Prometheus' model.Duration (`1d`, `5m`, `1h30m`, `500ms`, or `0`) as rule files use it: the
// parser and printer of @logsvc/gocompat, with the parse failure as undefined.
import { GoSyntaxError, modelDurationString, modelParseDuration } from '@logsvc/gocompat';

/** Milliseconds, or undefined when the text is not a Prometheus duration. */
export function parseModelDuration(text: string): number | undefined {
  try {
    return modelParseDuration(text);
  } catch (err) {
    if (err instanceof GoSyntaxError) return undefined;
    throw err;
  }
}

/** model.Duration.String(): largest units first (years and weeks only when exact), `0s` for zero. */
export const formatModelDuration = modelDurationString;
