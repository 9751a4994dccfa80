export * from './labels';
export * from './entry';
