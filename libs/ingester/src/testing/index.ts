// `@logsvc/ingester/testing`: ingesters and pushes for the read-path tests of other libraries.
export {
  pushRows,
  pushStreams,
  type TestRow,
  tinyChunkIngester,
  withTinyIngester,
} from './tiny-ingester';
export { rowArb, streamsArb, T } from './rows';
