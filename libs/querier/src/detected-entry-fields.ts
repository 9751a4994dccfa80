/**
 * The fields Loki's Logs Drilldown finds in one log entry (`parseEntry` in Loki's
 * `pkg/querier/queryrange/detected_fields.go`): the labels the query's own parsers set, plus
 * what the line gives when read as JSON, or, when it is not a JSON object, as logfmt.
 */
import type { Labels, ResultEntry } from '@logsvc/api';
import { log } from '@logsvc/logql';

export type FieldParser = 'json' | 'logfmt';

/** What one entry contributes: values by field name, and which parser read the line. */
export interface EntryFields {
  readonly structuredMetadata: ReadonlyMap<string, readonly string[]>;
  readonly parsed: ReadonlyMap<string, readonly string[]>;
  readonly parser: FieldParser;
}

/** Labels of a parser error, never fields. */
const ERROR_LABELS = new Set([log.ERROR_LABEL, log.ERROR_DETAILS_LABEL, log.PRESERVE_ERROR_LABEL]);

function addValue(map: Map<string, string[]>, name: string, value: string): void {
  const values = map.get(name);
  if (values === undefined) map.set(name, [value]);
  else if (!values.includes(value)) values.push(value);
}

/**
 * Reads entries of one stream. Keys equal to a stream label are stored as `<key>_extracted`,
 * as a parser stage does; a label the query's pipeline set is not a stream label here (Loki
 * deletes the query's parsed names from the stream labels before it parses the line again).
 */
export class EntryFieldReader {
  private readonly json = new log.JsonParserStage();
  private readonly logfmt = new log.LogfmtParserStage();
  private readonly builder: log.LabelsBuilder;

  constructor(private readonly streamLabels: Labels) {
    this.builder = new log.LabelsBuilder(streamLabels);
  }

  read(entry: ResultEntry): EntryFields {
    const line = Buffer.from(entry[1]);
    const categories = entry.length === 3 ? entry[2] : undefined;
    const structuredMetadata = new Map<string, string[]>();
    for (const p of categories?.structuredMetadata ?? []) {
      addValue(structuredMetadata, p.name, p.value);
    }
    const parsed = new Map<string, string[]>();
    for (const p of categories?.parsed ?? []) {
      if (!ERROR_LABELS.has(p.name)) addValue(parsed, p.name, p.value);
    }
    const lbs = this.builderFor(parsed);
    lbs.reset();
    let parser: FieldParser = 'json';
    this.json.process(0n, line, lbs);
    if (lbs.hasErr()) {
      lbs.reset();
      parser = 'logfmt';
      this.logfmt.process(0n, line, lbs);
    }
    for (const p of lbs.labels().parsed) {
      if (!ERROR_LABELS.has(p.name)) addValue(parsed, p.name, p.value);
    }
    return { structuredMetadata, parsed, parser };
  }

  /** The stream's builder, or a one-off one when the query's pipeline set a stream label. */
  private builderFor(queryParsed: ReadonlyMap<string, unknown>): log.LabelsBuilder {
    if (!this.streamLabels.some((p) => queryParsed.has(p.name))) return this.builder;
    return new log.LabelsBuilder(this.streamLabels.filter((p) => !queryParsed.has(p.name)));
  }
}
