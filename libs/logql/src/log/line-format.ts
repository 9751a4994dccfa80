/**
 * `| line_format "tmpl"`: the line becomes the template's output, with the current labels as
 * data (missing keys read as empty) and `__line__` / `__timestamp__` for the entry. An
 * execution error keeps the line and sets `__error__=TemplateFormatErr` with the details.
 */
import { compileTemplate, TemplateError, type CompiledTemplate } from '@logsvc/gotemplate';
import { ERR_TEMPLATE_FORMAT, StageBuildError } from './errors';
import type { LabelsBuilder } from './labels-builder';
import type { Stage } from './pipeline';

const SIMPLE_FIELD = /^\{\{\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/**
 * Compiles a template for a formatting stage; a bad one becomes a StageBuildError with Loki's
 * prefix: `invalid line template: ` (line_format) or `invalid template for label '<dst>': `.
 */
export function compileStageTemplate(
  text: string,
  name: 'line' | 'label',
  dst = '',
): CompiledTemplate {
  try {
    return compileTemplate(text, { name });
  } catch (err) {
    if (err instanceof TemplateError) {
      const prefix =
        name === 'line' ? 'invalid line template: ' : `invalid template for label '${dst}': `;
      throw new StageBuildError(prefix + err.message);
    }
    throw err;
  }
}

export class LineFormatStage implements Stage {
  private readonly template: CompiledTemplate | null;
  /** `{{.name}}` alone: the line is that label's value, without running a template. */
  private readonly simpleKey: string | null;

  constructor(readonly text: string) {
    const simple = SIMPLE_FIELD.exec(text);
    this.simpleKey = simple === null ? null : simple[1];
    this.template = simple === null ? compileStageTemplate(text, 'line') : null;
  }

  process(timestampNs: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    if (this.simpleKey !== null) return Buffer.from(lbs.get(this.simpleKey) ?? '');
    const template = this.template as CompiledTemplate;
    try {
      const out = template.execute(lbs.labels().record(), {
        line: template.usesLine ? line.toString('utf8') : '',
        timestampNs,
      });
      return Buffer.from(out);
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      lbs.setErr(ERR_TEMPLATE_FORMAT);
      lbs.setErrorDetails(err.message);
      return line;
    }
  }
}
