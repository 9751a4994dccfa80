import { type Config, defaultConfig, diffConfig, renderConfigYaml } from '@logsvc/config';

export const CONFIG_MODES = ['', 'diff', 'diffs', 'defaults'] as const;
export type ConfigMode = (typeof CONFIG_MODES)[number];

const MASK = '********';

/** A copy of the config with secrets replaced, as Loki hides them from /config. */
function masked(config: Config): Config {
  const copy = structuredClone(config);
  if (copy.storage_config.aws.secret_access_key) copy.storage_config.aws.secret_access_key = MASK;
  if (copy.common.ring.kvstore.etcd.password) copy.common.ring.kvstore.etcd.password = MASK;
  return copy;
}

/** YAML for `/config?mode=`: the current config, its differences from the defaults, or the defaults. */
export function configYaml(config: Config, mode: ConfigMode): string {
  switch (mode) {
    case 'defaults':
      return renderConfigYaml(defaultConfig());
    case 'diff':
    case 'diffs':
      return renderConfigYaml(diffConfig(masked(config), defaultConfig()));
    case '':
      return renderConfigYaml(masked(config));
  }
}
