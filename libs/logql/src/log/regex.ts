/**
 * The pipeline's view of user regexes, over the shared RE2 wrapper (`../regex`): unanchored,
 * on Buffers, with a literal prefilter when the regex has one. Bad regexes become
 * StageBuildErrors carrying Go's message.
 */
import {
  compileRegex as compileRe2,
  RegexSyntaxError,
  type CompiledRegex as Re2Regex,
} from '../regex';
import { StageBuildError } from './errors';

export interface CompiledRegex {
  readonly source: string;
  /** Whether the regex matches anywhere in the bytes (unanchored). */
  test(input: Buffer): boolean;
  /** The first match's named groups (undefined when a group did not take part), or null. */
  namedGroups(input: Buffer): Readonly<Record<string, Buffer | undefined>> | null;
  /** Names of the named groups, in order. */
  readonly groupNames: readonly string[];
  /** The underlying regex, for replace on the rare paths that need it. */
  readonly re2: Re2Regex['re2'];
}

export function compileRegex(source: string): CompiledRegex {
  let re: Re2Regex;
  try {
    re = compileRe2(source);
  } catch (err) {
    if (err instanceof RegexSyntaxError) throw new StageBuildError(err.message);
    throw err;
  }
  const prefilter =
    re.literalPrefilter === undefined ? undefined : Buffer.from(re.literalPrefilter);
  return {
    source,
    groupNames: re.groupNames.filter((n) => n !== ''),
    re2: re.re2,
    test:
      prefilter === undefined || prefilter.length === 0
        ? (input) => re.test(input)
        : (input) => input.indexOf(prefilter) >= 0 && re.test(input),
    namedGroups: (input) => {
      if (prefilter !== undefined && prefilter.length > 0 && input.indexOf(prefilter) < 0)
        return null;
      const m = re.exec(input);
      return m === undefined ? null : m.named;
    },
  };
}
