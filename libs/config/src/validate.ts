import { ConfigError } from './errors';
import type { Config } from './schema';
import { grpcClientTlsConfigs } from './tls-configs';

const DAY_MS = 24 * 3600_000;

/** Checks rules that span fields; throws ConfigError naming the offending key. */
export function validateConfig(config: Config): void {
  const problems: string[] = [];
  const bad = (key: string, message: string) => problems.push(`config error: ${key}: ${message}`);

  for (const [key, port] of [
    ['server.http_listen_port', config.server.http_listen_port],
    ['server.grpc_listen_port', config.server.grpc_listen_port],
    ['ingester.lifecycler.port', config.ingester.lifecycler.port],
    ['common.ring.instance_port', config.common.ring.instance_port],
    ['distributor.ring.instance_port', config.distributor.ring.instance_port],
    ['index_gateway.ring.instance_port', config.index_gateway.ring.instance_port],
  ] as const) {
    if (port > 65535) bad(key, `must be a TCP port between 0 and 65535, got ${port}`);
  }
  if (config.common.path_prefix === '') bad('common.path_prefix', 'must not be empty');
  if (config.ingester.wal.enabled && config.ingester.wal.checkpoint_duration <= 0) {
    bad('ingester.wal.checkpoint_duration', 'must be greater than 0 when the WAL is enabled');
  }
  if (config.ingester.chunk_block_size <= 0)
    bad('ingester.chunk_block_size', 'must be greater than 0');
  if (config.ingester.flush_check_period <= 0)
    bad('ingester.flush_check_period', 'must be greater than 0');
  if (config.pattern_ingester.lifecycler.ring.replication_factor !== 1) {
    // Loki: "invalid pattern_ingester config: pattern ingester replication factor must be 1".
    bad(
      'pattern_ingester.lifecycler.ring.replication_factor',
      'pattern ingester replication factor must be 1',
    );
  }
  if (config.runtime_config.period <= 0) bad('runtime_config.period', 'must be greater than 0');
  // 0 turns hierarchical queues off, as in Loki.
  if (config.query_scheduler.max_queue_hierarchy_levels < 0) {
    bad('query_scheduler.max_queue_hierarchy_levels', 'must not be negative');
  }
  if (
    config.frontend_worker.frontend_address !== '' &&
    config.frontend_worker.scheduler_address !== ''
  ) {
    // Loki: "invalid frontend_worker config: frontend address and scheduler address are
    // mutually exclusive, please use only one".
    bad(
      'frontend_worker',
      'frontend address and scheduler address are mutually exclusive, please use only one',
    );
  }

  if (
    config.ruler.evaluation.mode === 'remote' &&
    config.ruler.evaluation.query_frontend.address === ''
  ) {
    bad(
      'ruler.evaluation.query_frontend.address',
      'must be set when ruler.evaluation.mode is remote',
    );
  }

  validateTls(config, bad);

  const periods = config.schema_config.configs;
  if (periods.length === 0) bad('schema_config.configs', 'at least one period config is needed');
  let previous = -Infinity;
  periods.forEach((period, i) => {
    const key = `schema_config.configs.${i}`;
    const from = /^\d{4}-\d{2}-\d{2}$/.test(period.from)
      ? Date.parse(`${period.from}T00:00:00Z`)
      : NaN;
    if (Number.isNaN(from)) {
      bad(`${key}.from`, `expected a date like 2024-04-01, got ${JSON.stringify(period.from)}`);
      return;
    }
    if (from <= previous)
      bad(`${key}.from`, 'periods must be in increasing order of their from date');
    previous = from;
    if (period.index.period !== DAY_MS)
      bad(`${key}.index.period`, 'must be 24h for the tsdb store');
  });
  const aws = config.storage_config.aws;
  if (aws.s3 !== '' && !/^s3:\/\/[^/]*\/?/.test(aws.s3)) {
    bad(
      'storage_config.aws.s3',
      `expected a URL like s3://key:secret@region/bucket, got ${JSON.stringify(aws.s3)}`,
    );
  }
  if (periods.some((p) => p.object_store === 's3') && aws.bucketnames === '') {
    bad('storage_config.aws.bucketnames', 'is required when a period uses object_store s3');
  }
  const azure = config.storage_config.azure;
  if (periods.some((p) => p.object_store === 'azure')) {
    if (azure.connection_string === '' && azure.account_name === '') {
      bad(
        'storage_config.azure.account_name',
        'is required (or connection_string) when a period uses object_store azure',
      );
    }
    if (azure.connection_string === '' && azure.account_key === '') {
      bad(
        'storage_config.azure.account_key',
        'is required (or connection_string): logsvc signs Azure requests with the account key ' +
          '(managed identities and service principals are not supported)',
      );
    }
  }

  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
}

function validateTls(config: Config, bad: (key: string, message: string) => void): void {
  const server = config.server.grpc_tls_config;
  const key = 'server.grpc_tls_config';
  if ((server.cert_file === '') !== (server.key_file === '')) {
    bad(key, 'cert_file and key_file must be set together');
  }
  const mutual = server.client_auth_type === 'RequireAndVerifyClientCert';
  if (mutual && server.cert_file === '') {
    bad(`${key}.client_auth_type`, 'RequireAndVerifyClientCert needs cert_file and key_file');
  }
  if (server.client_ca_file !== '' && !mutual) {
    // dskit's (exporter-toolkit's) message.
    bad(`${key}.client_ca_file`, "Client CA's have been configured without a Client Auth Policy");
  }
  for (const [name, client] of grpcClientTlsConfigs(config)) {
    // dskit's tls.ClientConfig messages.
    if (client.tls_cert_path !== '' && client.tls_key_path === '')
      bad(name, 'certificate given but no key configured');
    if (client.tls_key_path !== '' && client.tls_cert_path === '')
      bad(name, 'key given but no certificate configured');
  }
}
