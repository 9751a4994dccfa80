/** Parse-time regex checks: Loki compiles matcher and label_replace regexes while parsing. */
import { compileRegex, RegexSyntaxError, type CompiledRegex } from '../regex';
import { ParseError } from './errors';

/**
 * Compiles a matcher's regex (`=~`/`!~` in selectors, label filters, drop/keep) or throws a
 * position-less ParseError quoting the value as written (Prometheus' `labels.NewMatcher`).
 */
export function checkRegex(source: string, anchored: boolean): CompiledRegex {
  try {
    return compileRegex(source, { anchored });
  } catch (err) {
    if (err instanceof RegexSyntaxError) throw ParseError.semantic(err.message);
    throw err;
  }
}

/**
 * label_replace's regex: Loki compiles `^(?:regex)$` with Go's `regexp.Compile`, so an error
 * quotes the anchored text (``missing closing ): `^(?:(x)$` ``).
 */
export function checkLabelReplaceRegex(regex: string): void {
  try {
    compileRegex(`^(?:${regex})$`);
  } catch (err) {
    if (err instanceof RegexSyntaxError) {
      throw ParseError.semantic(`invalid regex in label_replace: ${err.message}`);
    }
    throw err;
  }
}
