/**
 * When a metric query cannot see an entry's structured metadata, so that a reader may leave it
 * undecoded (a columnar block's metadata columns, the builder's work per entry).
 *
 * In LogQL structured metadata becomes labels of the entry: grouped by, filtered on, read by
 * templates, shadowing a parsed key (which then goes to `<name>_extracted`), and every label of
 * an entry whose sample carries `__error__`. Under parser hints the labels a query reads are
 * known (`ParserHints.keyNames`: the wanted labels and their bases before `_extracted`), so a
 * metadata label whose name, as the builder offers it (normalized, `_extracted` when a stream
 * label holds it), is none of those and does not start with `__` changes nothing a sample
 * without an error shows:
 *
 * - label filters, `label_format` renames and `unwrap` read only wanted names;
 * - parsers extract only wanted names, and a metadata name moves a parsed key to
 *   `<name>_extracted` only when a wanted name is that (then its base is a key name);
 * - a `by` grouping reads only wanted names; `by ()` reads none;
 * - `drop` / `keep` only remove labels, `decolorize` and line filters read none.
 *
 * Templates (`line_format`, `label_format` with a template) may range over every label, and
 * without hints (no `by`, `without`) every label is in the series: metadata is then always
 * read. An erroneous sample keeps all its labels, metadata among them: the caller runs such an
 * entry again with its metadata (see `StreamSampleExtractor.hidesMetadata`).
 */
import { DecolorizeStage } from './decolorize';
import { DropLabelsStage, KeepLabelsStage } from './drop-keep';
import { JsonExpressionParserStage } from './json-expr';
import { JsonParserStage } from './json-parser';
import { LabelFilterStage } from './label-filter';
import { LabelFormatStage } from './label-format';
import type { LabelGrouping, LabelsBuilder } from './labels-builder';
import { LineFilterStage } from './line-filter';
import { LogfmtExpressionParserStage, LogfmtParserStage } from './logfmt';
import type { ParserHints } from './parser-hints';
import { PatternParserStage } from './pattern-parser';
import type { Stage } from './pipeline';
import { RegexpParserStage } from './regexp-parser';
import { UnpackParserStage } from './unpack';

/** Stages that read no label beyond the hints' names (see the file comment). */
function readsOnlyHintedLabels(stage: Stage): boolean {
  if (stage instanceof LabelFormatStage) return !stage.hasTemplates;
  return (
    stage instanceof LineFilterStage ||
    stage instanceof LabelFilterStage ||
    stage instanceof LogfmtParserStage ||
    stage instanceof LogfmtExpressionParserStage ||
    stage instanceof JsonParserStage ||
    stage instanceof JsonExpressionParserStage ||
    stage instanceof RegexpParserStage ||
    stage instanceof PatternParserStage ||
    stage instanceof UnpackParserStage ||
    stage instanceof DecolorizeStage ||
    stage instanceof DropLabelsStage ||
    stage instanceof KeepLabelsStage
  );
}

/**
 * For one stream's builder: whether entries whose metadata names (as stored) are all among
 * `names` give the same error-free sample without their metadata; undefined when no metadata
 * can be hidden from this query.
 */
export function metadataHider(
  stages: readonly Stage[],
  hints: ParserHints,
  grouping: LabelGrouping,
  lbs: LabelsBuilder,
): ((names: readonly string[]) => boolean) | undefined {
  if (!stages.every(readsOnlyHintedLabels)) return undefined;
  const keyNames = hints.keyNames();
  // `by ()` with nothing read: no label shows (Loki's `NoLabels`).
  if (keyNames === null && !(hints.noLabels && grouping.noLabels)) return undefined;
  const wanted = new Set(keyNames ?? []);
  return (names) => {
    for (let i = 0; i < names.length; i++) {
      const name = lbs.metadataName(names[i]);
      if (name.startsWith('__') || wanted.has(name)) return false;
    }
    return true;
  };
}
