/**
 * `| label_format dst=src, dst2="{{tmpl}}"`. A rename copies `src` into `dst` (keeping its
 * category) and removes `src`; a missing `src` is a no-op. A template sets `dst` as a parsed
 * label; templates read the labels as they are when the first template of the stage runs
 * (Loki computes that map once per stage). A template error sets
 * `__error__=TemplateFormatErr` and leaves `dst` unset.
 */
import type { CompiledTemplate } from '@logsvc/gotemplate';
import { TemplateError } from '@logsvc/gotemplate';
import { ERR_TEMPLATE_FORMAT, ERROR_LABEL, StageBuildError } from './errors';
import { LabelCategory, type LabelsBuilder } from './labels-builder';
import { compileStageTemplate } from './line-format';
import type { Stage } from './pipeline';

/** One `dst=src` rename or `dst="template"`. */
export interface LabelFormatParam {
  readonly name: string;
  readonly value: string;
  readonly rename: boolean;
}

interface Format {
  readonly name: string;
  readonly source: string;
  readonly template: CompiledTemplate | null;
}

export class LabelFormatStage implements Stage {
  private readonly formats: Format[];

  constructor(params: readonly LabelFormatParam[]) {
    // As Loki: every name is checked before any template is parsed.
    const seen = new Set<string>();
    for (const p of params) {
      if (p.name === ERROR_LABEL) throw new StageBuildError(`${ERROR_LABEL} cannot be formatted`);
      if (seen.has(p.name)) {
        throw new StageBuildError(
          `multiple label name '${p.name}' not allowed in a single format operation`,
        );
      }
      seen.add(p.name);
    }
    this.formats = params.map((p) => ({
      name: p.name,
      source: p.value,
      template: p.rename ? null : compileStageTemplate(p.value, 'label', p.name),
    }));
  }

  /** Whether some `dst="template"` is among the formats (templates may read every label). */
  get hasTemplates(): boolean {
    return this.formats.some((f) => f.template !== null);
  }

  process(timestampNs: bigint, line: Buffer, lbs: LabelsBuilder): Buffer {
    let data: Readonly<Record<string, string>> | null = null;
    let lineText: string | null = null;
    for (const f of this.formats) {
      if (f.template === null) {
        const value = lbs.get(f.source);
        if (value === undefined) continue;
        const category = lbs.categoryOf(f.source) ?? LabelCategory.Parsed;
        lbs.set(category, f.name, value);
        lbs.del(f.source);
        continue;
      }
      if (data === null) data = lbs.labels().record();
      if (f.template.usesLine && lineText === null) lineText = line.toString('utf8');
      try {
        const value = f.template.execute(data, { line: lineText ?? '', timestampNs });
        lbs.set(LabelCategory.Parsed, f.name, value);
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
        lbs.setErr(ERR_TEMPLATE_FORMAT);
        lbs.setErrorDetails(err.message);
      }
    }
    return line;
  }
}
