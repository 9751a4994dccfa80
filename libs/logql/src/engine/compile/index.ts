/** The pipeline compiler: LogQL AST to runtime pipeline objects. */
export { compilePipeline, type CompiledPipeline } from './pipeline';
export { compileLabelFilter } from './label-filters';
export { compileLineFilter } from './line-filters';
export { reorderStages } from './reorder';
