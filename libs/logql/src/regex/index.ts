export {
  compileRegex,
  captureGroupNames,
  RegexSyntaxError,
  type CompiledRegex,
  type CompileOptions,
  type RegexMatch,
} from './regex';
export { extractLiteralPrefilter } from './literal';
