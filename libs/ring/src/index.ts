export * from './kv';
export * from './memory-kv';
export * from './token';
export * from './types';
export * from './etcd-kv';
export * from './kv-factory';
