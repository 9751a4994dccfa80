/** Parse-time regex checks: Loki compiles matcher and label_replace regexes while parsing. */
import { compileRegex, RegexSyntaxError, type CompiledRegex } from '../regex';
import { ParseError } from './errors';

/** Compiles `source` (anchored or not) or throws a position-less ParseError. */
export function checkRegex(source: string, anchored: boolean, prefix = ''): CompiledRegex {
  try {
    return compileRegex(source, { anchored });
  } catch (err) {
    if (err instanceof RegexSyntaxError) throw ParseError.semantic(prefix + err.message);
    throw err;
  }
}
