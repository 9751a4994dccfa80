export * from './kv';
export * from './memory-kv';
export * from './token';
export * from './types';
