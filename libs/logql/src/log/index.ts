/** Runtime of the LogQL log pipeline: labels builder, stages, sample extractors. */
export * from './errors';
export {
  LabelCategory,
  LabelsBuilder,
  LabelsResult,
  entryCategories,
  labelsKey,
  normalizeMetadataName,
} from './labels-builder';
export { Pipeline, StreamPipeline, type PipelineResult, type Stage } from './pipeline';
export {
  AndFilter,
  ContainsFilter,
  IpLineFilter,
  LineFilterStage,
  MATCH_ALL,
  NotFilter,
  OrFilter,
  PatternFilter,
  RegexFilter,
  newLineFilter,
  type LineFilter,
  type LineFilterOp,
  type LineFilterValue,
} from './line-filter';
export { IpMatcher, parseIp } from './ip';
export { PatternExtractor, PatternLineMatcher } from './pattern';
export { JsonParserStage, MAX_JSON_DEPTH } from './json-parser';
export { NO_PARSER_HINTS, ParserHints, newParserHints, type HintInputs } from './parser-hints';
export {
  JsonExpressionParserStage,
  parseJsonPath,
  type ExtractionParam,
  type JsonPathPart,
} from './json-expr';
export {
  LogfmtDecoder,
  LogfmtExpressionParserStage,
  LogfmtParserStage,
  type LogfmtOptions,
} from './logfmt';
export { RegexpParserStage } from './regexp-parser';
export { PatternParserStage } from './pattern-parser';
export { UnpackParserStage } from './unpack';
export {
  BinaryLabelFilter,
  BytesLabelFilter,
  DurationLabelFilter,
  IpLabelFilter,
  LabelFilterStage,
  NumericLabelFilter,
  StringLabelFilter,
  andLabelFilters,
  orLabelFilters,
  type ComparisonOp,
  type LabelFilter,
} from './label-filter';
export { LineFormatStage } from './line-format';
export { LabelFormatStage, type LabelFormatParam } from './label-format';
export { DropLabelsStage, KeepLabelsStage, type LabelSelector } from './drop-keep';
export { DecolorizeStage } from './decolorize';
export {
  ConversionError,
  parseGoDurationNs,
  parseGoDurationSeconds,
  parseGoFloat,
  parseHumanBytes,
} from './conversions';
export { sanitizeLabelKey } from './sanitize';
export {
  LabelSampleExtractor,
  LineSampleExtractor,
  type Grouping,
  type LineSampleKind,
  type Sample,
  type SampleExtractor,
  type StreamSampleExtractor,
  type UnwrapConversion,
} from './sample-extractor';
