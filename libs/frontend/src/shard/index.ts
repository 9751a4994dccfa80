export * from './plan';
export * from './combine';
export * from './log-merge';
