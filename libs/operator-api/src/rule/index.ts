export * from './schema';
export * from './crd';
export type * from './types.generated';
