/**
 * `label_replace(v, "dst", "replacement", "src", "regex")`: when the anchored regex matches
 * the value of `src` (missing = ""), `dst` is set to the replacement expanded with Go's
 * `Regexp.Expand` rules (`$1`, `${1}`, `$name`, `${name}`, `$$`); an empty result deletes
 * `dst`. No match leaves the series unchanged.
 */
import { compileRegex, RegexSyntaxError, type CompiledRegex } from '../../regex';
import type { LabelReplaceExpr } from '../../syntax/ast';
import { InvalidFunctionArgumentError } from './errors';
import { getLabelValue, MetricCache, setLabel } from './labels';
import type { StepEvaluator } from './step-evaluator';
import type { StepVector } from './types';

export class LabelReplaceEvaluator implements StepEvaluator {
  private readonly relabel: MetricCache;

  constructor(
    expr: LabelReplaceExpr,
    private readonly inner: StepEvaluator,
  ) {
    let re: CompiledRegex;
    try {
      re = compileRegex(expr.regex, { anchored: true });
    } catch (err) {
      if (!(err instanceof RegexSyntaxError)) throw err;
      throw new InvalidFunctionArgumentError(`invalid regex in label_replace: ${err.message}`);
    }
    this.relabel = new MetricCache((labels) => {
      const match = re.exec(getLabelValue(labels, expr.src));
      if (match === undefined) return labels;
      return setLabel(labels, expr.dst, expandTemplate(expr.replacement, match, re.groupNames));
    });
  }

  load(): Promise<void> {
    return this.inner.load();
  }

  step(k: number): StepVector {
    const vec = this.inner.step(k);
    return { metrics: vec.metrics.map((m) => this.relabel.get(m)), values: vec.values };
  }
}

const NAME_CHAR = /[\p{L}\p{Nd}_]/u;

/** Go's `Regexp.ExpandString` over a match's groups. */
export function expandTemplate(
  template: string,
  match: { readonly groups: ReadonlyArray<string | undefined> },
  groupNames: readonly string[],
): string {
  let out = '';
  let rest = template;
  while (rest.length > 0) {
    const dollar = rest.indexOf('$');
    if (dollar === -1) break;
    out += rest.slice(0, dollar);
    rest = rest.slice(dollar + 1);
    if (rest.startsWith('$')) {
      out += '$';
      rest = rest.slice(1);
      continue;
    }
    const ref = extractReference(rest);
    if (ref === undefined) {
      out += '$';
      continue;
    }
    rest = ref.rest;
    if (ref.num >= 0) {
      out += match.groups[ref.num] ?? '';
    } else {
      const i = groupNames.indexOf(ref.name);
      if (i > 0) out += match.groups[i] ?? '';
    }
  }
  return out + rest;
}

function extractReference(s: string): { name: string; num: number; rest: string } | undefined {
  let str = s;
  const brace = str.startsWith('{');
  if (brace) str = str.slice(1);
  let i = 0;
  for (const ch of str) {
    if (!NAME_CHAR.test(ch)) break;
    i += ch.length;
  }
  if (i === 0) return undefined;
  const name = str.slice(0, i);
  if (brace) {
    if (str[i] !== '}') return undefined;
    i++;
  }
  let num = /^\d+$/.test(name) && name.length <= 8 ? Number(name) : -1;
  if (name.length > 1 && name.startsWith('0')) num = -1;
  return { name, num, rest: str.slice(i) };
}
