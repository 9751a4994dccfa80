// Runs s3rver on a free port of 127.0.0.1 in its own process and prints {"port":N} once it
// listens. Started with --openssl-legacy-provider: s3rver 3.7.1 encrypts ListObjectsV2
// continuation tokens with DES, which OpenSSL 3 (Node >= 17) disables by default.
// Exits when its stdin closes, so it never outlives the test that started it.
import process from 'node:process';
import S3rver from 's3rver';

const [directory, ...buckets] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: buckets.map((name) => ({ name })),
});

server.run().then(
  ({ port }) => process.stdout.write(JSON.stringify({ port }) + '\n'),
  (err) => {
    process.stderr.write(String(err && err.stack) + '\n');
    process.exit(1);
  },
);

const stop = () => server.close().finally(() => process.exit(0));
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
