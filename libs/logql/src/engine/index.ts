export * from './source';
export * from './stats';
export * from './compile';
export * from './sources';
export * from './logs';
export * from './query';
export * from './metrics';
export * from './memory-budget';
