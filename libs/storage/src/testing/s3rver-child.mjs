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

// s3rver 3.7.1 stops walking its directory tree below any path that holds the delimiter, so
// with a delimiter it misses every common prefix whose objects all lie two or more levels
// down (listing "" with "/" over `fake/chunks/<fp>/<chunk>` finds no `fake/`). S3 rolls up
// every key; so does this: list without the delimiter, then roll up the keys here.
const listObjects = server.store.listObjects.bind(server.store);
server.store.listObjects = async (bucket, options) => {
  const { delimiter } = options;
  if (!delimiter) return listObjects(bucket, options);
  const prefix = options.prefix ?? '';
  const maxKeys = options.maxKeys ?? Infinity;
  const all = await listObjects(bucket, { ...options, delimiter: '', maxKeys: Infinity });
  const objects = [];
  const commonPrefixes = new Set();
  for (const o of all.objects) {
    const at = o.key.slice(prefix.length).indexOf(delimiter);
    if (at === -1) objects.push(o);
    else commonPrefixes.add(o.key.slice(0, prefix.length + at + delimiter.length));
  }
  return {
    objects: objects.slice(0, maxKeys),
    commonPrefixes: [...commonPrefixes].sort(),
    isTruncated: objects.length > maxKeys,
  };
};

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
