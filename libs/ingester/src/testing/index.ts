// `@logsvc/ingester/testing`: ingesters and pushes for the read-path tests of other libraries.
export { pushRows, type TestRow, tinyChunkIngester } from './tiny-ingester';
