export { Prng } from './prng';
export { LINE_FORMATS, type LineFormat, nginxLine, jsonLine, logfmtLine } from './line-formats';
export { mixedLine } from './mixed-lines';
export {
  LogGenerator,
  type GeneratorOptions,
  type GeneratedBatch,
  type GeneratedStream,
} from './generator';
