export * from './embedded-cache';
export * from './extents';
export * from './key';
export * from './results-cache';
export * from './stats';
