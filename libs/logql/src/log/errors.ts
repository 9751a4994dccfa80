/** Names and values of the special error labels, as Loki's `pkg/logql/log/error.go` spells them. */
export const ERROR_LABEL = '__error__';
export const ERROR_DETAILS_LABEL = '__error_details__';
export const PRESERVE_ERROR_LABEL = '__preserve_error__';

export const ERR_JSON = 'JSONParserErr';
export const ERR_LOGFMT = 'LogfmtParserErr';
export const ERR_SAMPLE_EXTRACTION = 'SampleExtractionErr';
export const ERR_LABEL_FILTER = 'LabelFilterErr';
export const ERR_TEMPLATE_FORMAT = 'TemplateFormatErr';

/** Suffix given to an extracted label whose name is already a stream label. */
export const DUPLICATE_SUFFIX = '_extracted';

/**
 * A stage could not be built from its parameters (bad regex, bad pattern, bad ip range...).
 * The compiler reports it as `parse error : stage '<stage>' : <message>`.
 */
export class StageBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StageBuildError';
  }
}
