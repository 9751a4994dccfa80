export * from './kv';
export * from './types';
