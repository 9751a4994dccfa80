import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse';
import { renderConfigYaml } from './render';
import { maskSecrets } from './secrets';

describe('maskSecrets', () => {
  it('hides the etcd password everywhere loading copied it, and the S3 secret', () => {
    const config = parseConfig({
      common: { ring: { kvstore: { store: 'etcd', etcd: { password: 'hunter2' } } } },
      storage_config: { aws: { secret_access_key: 'aws-secret' } },
    });
    const text = renderConfigYaml(maskSecrets(config));
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('aws-secret');
    expect(text).toContain('password: "********"');
    // Unset secrets stay empty, and the config itself is left as it was.
    expect(maskSecrets(parseConfig({})).common.ring.kvstore.etcd.password).toBe('');
    expect(config.common.ring.kvstore.etcd.password).toBe('hunter2');
  });
});
