/**
 * Loki builds the `regexp` and `pattern` parsers while parsing (`newLabelParserExpr`), so a bad
 * regex, a regex without a named group or a bad pattern fails the parse as
 * `parse error : invalid regexp parser: <reason>` / `invalid pattern parser: <reason>`.
 */
import { StageBuildError } from '../log/errors';
import { PatternParserStage } from '../log/pattern-parser';
import { RegexpParserStage } from '../log/regexp-parser';
import { ParseError } from './errors';

export function checkRegexpParser(regex: string): void {
  check('regexp', () => new RegexpParserStage(regex));
}

export function checkPatternParser(pattern: string): void {
  check('pattern', () => new PatternParserStage(pattern));
}

function check(parser: string, build: () => unknown): void {
  try {
    build();
  } catch (err) {
    if (err instanceof StageBuildError) {
      throw ParseError.semantic(`invalid ${parser} parser: ${err.message}`);
    }
    throw err;
  }
}
