import { describe, expect, it } from 'vitest';
import { ConfigError } from './errors';
import { expandEnv } from './expand-env';
import { parseArgs } from './flags';
import { loadConfig, loadConfigReport } from './load';

const files = (content: Record<string, string>) => (p: string) => {
  if (!(p in content)) throw new Error(`ENOENT: no such file, open '${p}'`);
  return content[p];
};

describe('parseArgs', () => {
  it('accepts -x=v, --x=v, -x v and bare booleans', () => {
    const sut = parseArgs([
      '-server.http-listen-port=3199',
      '--log.level=debug',
      '-target',
      'querier',
      '-auth.enabled',
      '-config.file=x.yaml',
    ]);
    expect(sut.configFile).toBe('x.yaml');
    expect(sut.settings.map((s) => [s.path, s.value])).toEqual([
      ['server.http_listen_port', 3199],
      ['server.log_level', 'debug'],
      ['target', 'querier'],
      ['auth_enabled', true],
    ]);
  });

  it('rejects unknown flags, missing values and bad values', () => {
    expect(() => parseArgs(['-no.such-flag=1'])).toThrow(
      'flag provided but not defined: -no.such-flag',
    );
    expect(() => parseArgs(['-limits_config.max_line_size=1'])).toThrow(
      'flag provided but not defined',
    );
    expect(() => parseArgs(['-server.http-listen-port'])).toThrow(
      'flag needs an argument: -server.http-listen-port',
    );
    expect(() => parseArgs(['-server.http-listen-port=abc'])).toThrow(
      'invalid value "abc" for flag -server.http-listen-port: expected an integer',
    );
    expect(() => parseArgs(['-auth.enabled=maybe'])).toThrow('expected true or false');
    expect(() => parseArgs(['-distributor.max-line-size=huge'])).toThrow(
      'expected a size like 256KB',
    );
    expect(() => parseArgs(['-querier.query-ingesters-within=soon'])).toThrow(
      'expected a duration like 5m',
    );
    expect(() => parseArgs(['stray'])).toThrow(ConfigError);
  });
});

describe('loadConfig', () => {
  it('applies defaults, then the file, then flags', () => {
    const readFile = files({
      'x.yaml':
        'server:\n  http_listen_port: 4000\n  log_level: warn\nlimits_config:\n  max_line_size: 1MB\n',
    });
    const sut = loadConfig(['-config.file=x.yaml', '-server.http-listen-port=3199'], { readFile });
    expect(sut.server.http_listen_port).toBe(3199);
    expect(sut.server.log_level).toBe('warn');
    expect(sut.limits_config.max_line_size).toBe(1024 * 1024);
  });

  it('maps Loki limit flags to limits_config', () => {
    const sut = loadConfig([
      '-distributor.ingestion-rate-limit-mb=8',
      '-distributor.max-line-size=512KB',
      '-validation.max-length-label-value=4096',
      '-querier.multi-tenant-queries-enabled',
      '-ingester.wal-enabled=false',
      '-runtime-config.file=/etc/overrides.yaml',
      '-validation.discover-service-name=svc,app',
    ]);
    expect(sut.limits_config.ingestion_rate_mb).toBe(8);
    expect(sut.limits_config.max_line_size).toBe(512 * 1024);
    expect(sut.limits_config.max_label_value_length).toBe(4096);
    expect(sut.querier.multi_tenant_queries_enabled).toBe(true);
    expect(sut.ingester.wal.enabled).toBe(false);
    expect(sut.runtime_config.file).toBe('/etc/overrides.yaml');
    expect(sut.limits_config.discover_service_name).toEqual(['svc', 'app']);
  });

  it('sizes the querier scan pool from -querier.scan-workers (0 = one per core, -1 = none)', () => {
    expect(loadConfig([]).querier.scan_workers).toBe(0);
    expect(loadConfig(['-querier.scan-workers=3']).querier.scan_workers).toBe(3);
    expect(loadConfig(['-querier.scan-workers=-1']).querier.scan_workers).toBe(-1);
    expect(() => loadConfig(['-querier.scan-workers=-2'])).toThrow(ConfigError);
  });

  it('sizes the querier query worker pool from -querier.query-workers (0 = one per core, -1 = none)', () => {
    expect(loadConfig([]).querier.query_workers).toBe(0);
    expect(loadConfig(['-querier.query-workers=3']).querier.query_workers).toBe(3);
    expect(loadConfig(['-querier.query-workers=-1']).querier.query_workers).toBe(-1);
    expect(() => loadConfig(['-querier.query-workers=-2'])).toThrow(ConfigError);
  });

  it('expands ${VAR} and ${VAR:-default} only with -config.expand-env=true', () => {
    const readFile = files({ 'x.yaml': 'common:\n  path_prefix: ${DATA:-/default}/${SUB}\n' });
    const env = { SUB: 'logs' };
    expect(
      loadConfig(['-config.file=x.yaml', '-config.expand-env=true'], { readFile, env }).common
        .path_prefix,
    ).toBe('/default/logs');
    expect(loadConfig(['-config.file=x.yaml'], { readFile, env }).common.path_prefix).toBe(
      '${DATA:-/default}/${SUB}',
    );
  });

  it('reports unreadable files, bad YAML and bad keys', () => {
    expect(() => loadConfig(['-config.file=missing.yaml'], { readFile: files({}) })).toThrow(
      'cannot read config file missing.yaml',
    );
    expect(() =>
      loadConfig(['-config.file=x.yaml'], { readFile: files({ 'x.yaml': 'a: [1' }) }),
    ).toThrow('config error: x.yaml: invalid YAML');
    expect(() =>
      loadConfig(['-config.file=x.yaml'], { readFile: files({ 'x.yaml': 'servr: {}' }) }),
    ).toThrow('config error: servr: unknown key');
  });
});

describe('expandEnv', () => {
  it('uses the default when the variable is unset or empty', () => {
    expect(expandEnv('${A:-x} ${B:-y} ${C}', { A: '', B: 'b' })).toBe('x b ');
  });
});

describe("Loki's flags for keys logsvc does not wire", () => {
  it('are accepted like their keys: with a warning, or refused unless at Loki’s default', () => {
    const { warnings } = loadConfigReport(['-tracing.enabled=false', '-reporting.enabled']);
    expect(warnings.map((w) => w.key)).toEqual(['tracing.enabled', 'analytics.reporting_enabled']);
    expect(() => loadConfigReport(['-server.path-prefix=/loki'])).toThrow(
      'config error: server.http_path_prefix: not supported by logsvc: logsvc serves its API at the root path',
    );
    expect(() => loadConfigReport(['-server.path-prefix='])).not.toThrow();
  });

  it('-verify-config and -print-config-stderr are loader flags', () => {
    const { args } = loadConfigReport(['-verify-config', '-print-config-stderr=true']);
    expect(args).toMatchObject({ verifyConfig: true, printConfigStderr: true });
  });
});
