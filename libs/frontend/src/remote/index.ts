export * from './remote-downstream';
