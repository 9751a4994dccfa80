import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse';
import { renderConfigYaml } from './render';
import { maskSecrets, maskSecretsInYaml } from './secrets';

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

describe('maskSecretsInYaml', () => {
  it('hides secrets written in a config file, and keeps the rest of the text', () => {
    const text = [
      '# rendered by the operator',
      'common:',
      '  ring:',
      '    kvstore:',
      '      etcd:',
      '        password: hunter2',
      'storage_config:',
      '  aws:',
      '    secret_access_key: aws-secret',
      "    bucketnames: 'logs'",
      '',
    ].join('\n');
    const out = maskSecretsInYaml(text);
    expect(out).not.toContain('hunter2');
    expect(out).not.toContain('aws-secret');
    expect(out).toContain('# rendered by the operator');
    expect(out).toContain("bucketnames: 'logs'");
    expect(out.match(/"\*{8}"|\*{8}/g)).toHaveLength(2);
  });

  it('returns text without secrets unchanged, environment references included', () => {
    const text = 'storage_config:\n  aws:\n    secret_access_key: ${S3_SECRET_ACCESS_KEY}\n';
    expect(maskSecretsInYaml(text)).toBe(text);
    expect(
      maskSecretsInYaml('ruler:\n  storage:\n    s3:\n      secret_access_key: ""\n'),
    ).toContain('secret_access_key: ""');
    expect(maskSecretsInYaml('a: [')).toBe('a: [');
  });

  it('masks a reference with an inline default, which is the secret itself', () => {
    const out = maskSecretsInYaml(
      'ruler:\n  storage:\n    s3:\n      secret_access_key: ${K:-s3cr3t}\n',
    );
    expect(out).not.toContain('s3cr3t');
  });
});
