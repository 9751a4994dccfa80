// The query frontend and scheduler pieces. Each area exports through its own index.
export * from './downstream';
export * from './queue';
export * from './cache';
export * from './split/split';
export * from './split/metadata-split';
export * from './split/metadata-jobs';
export * from './shard';
export * from './middleware';
export * from './remote';
export * from './dispatch';
export * from './api';
