// The parser (syntax) and regex compiler are the library's main surface; the log pipeline
// runtime and the template engine are namespaced because their filter types share names
// with the AST nodes they are built from.
export * from './syntax';
export * from './regex';
export * as log from './log';
export * as template from './template';
export * from './engine';
