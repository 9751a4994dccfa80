export * from './spec';
export { PRESETS, presetSpec, withPreset, type SizePreset } from './presets';
export * from './status';
export { checkSpecRules, isLabelValue } from './rules';
export * from './admission';
export { parseSpec, formatIssues, type ParsedSpec } from './parse';
export * from './crd';
export * from './resource';
export type * from './types.generated';
