// The parser (syntax) and regex compiler are the library's main surface; the log pipeline
// runtime is namespaced because its filter types share names with the AST nodes they are built
// from. The Go template engine is its own library, @logsvc/gotemplate.
export * from './syntax';
export * from './regex';
export * as log from './log';
export * from './engine';
