export * from './nodes';
export { s, defaulted } from './builders';
export { FORMAT_PATTERNS, FORMAT_EXAMPLES } from './formats';
export { toOpenApi, type OpenApiSchema } from './openapi';
export { applyDefaults } from './defaults';
export { validateNode, type SchemaIssue } from './validate';
export { referenceRows, referenceMarkdown, type ReferenceRow } from './reference';
export { toTypeScript } from './typescript';
