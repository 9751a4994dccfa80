export * from './split/split';
