import {
  type Config,
  defaultConfig,
  diffConfig,
  maskSecrets,
  renderConfigYaml,
} from '@logsvc/config';

export const CONFIG_MODES = ['', 'diff', 'diffs', 'defaults'] as const;
export type ConfigMode = (typeof CONFIG_MODES)[number];

/** A copy of the config with secrets replaced (every ring's etcd password, S3 keys), as Loki hides them from /config. */
function masked(config: Config): Config {
  return maskSecrets(config);
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
