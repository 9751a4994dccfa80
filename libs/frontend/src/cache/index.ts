export * from './extents';
export * from './key';
export * from './results-cache';
