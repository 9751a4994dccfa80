export * from './sub-query-job';
export * from './remote-downstream';
