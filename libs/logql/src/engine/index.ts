export * from './source';
export * from './stats';
