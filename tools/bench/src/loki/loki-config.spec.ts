import { describe, expect, it } from 'vitest';
import { lokiConfigYaml } from './loki-config';

describe('generated Loki config', () => {
  it('listens on 127.0.0.1 at the given ports, keeps data in the given dir, WAL as asked', () => {
    const yaml = lokiConfigYaml({
      dataDir: '/tmp/x/data',
      httpPort: 4100,
      grpcPort: 4101,
      wal: true,
    });
    expect(yaml).toMatch(/http_listen_address: 127\.0\.0\.1\n\s+http_listen_port: 4100\n/);
    expect(yaml).toMatch(/grpc_listen_address: 127\.0\.0\.1\n\s+grpc_listen_port: 4101\n/);
    expect(yaml).toContain('path_prefix: /tmp/x/data\n');
    expect(yaml).toMatch(/wal:\n\s+enabled: true\n\s+dir: \/tmp\/x\/data\/wal\n/);
    expect(lokiConfigYaml({ dataDir: '/d', httpPort: 1, grpcPort: 2, wal: false })).toMatch(
      /wal:\n\s+enabled: false/,
    );
    expect(yaml).not.toMatch(/0\.0\.0\.0/);
  });

  it('lifts the ingestion and stream limits like the logsvc bench server', () => {
    const yaml = lokiConfigYaml({ dataDir: '/d', httpPort: 1, grpcPort: 2, wal: true });
    expect(yaml).toContain('ingestion_rate_mb: 1000000');
    expect(yaml).toContain('max_global_streams_per_user: 1000000');
    expect(yaml).toContain('reject_old_samples: false');
  });
});
