export * from './carried-http';
export * from './forwarded-routes';
export * from './query-endpoint';
export * from './read-forwarding';
export * from './answers';
