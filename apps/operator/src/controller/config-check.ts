import { loadConfig, validateConfig } from '@logsvc/config';
import type { LogServiceSpec } from '@logsvc/operator-api';
import { CONFIG_FILE, planComponents, renderConfig } from '@logsvc/operator-render';

/**
 * `spec.configOverrides` checked the way the pods will read it: the rendered config.yaml
 * loaded and validated by logsvc's own config loader, once per workload's arguments (target,
 * zone). The first problem, naming the key; undefined when there are no overrides or all load.
 */
export function checkConfigOverrides(name: string, spec: LogServiceSpec): string | undefined {
  if (spec.configOverrides === undefined) return undefined;
  const text = renderConfig(name, spec);
  const seen = new Set<string>();
  for (const plan of planComponents(name, spec)) {
    const args = [
      `-config.file=${CONFIG_FILE}`,
      '-config.expand-env=true',
      `-target=${plan.target}`,
      ...(plan.zone === undefined ? [] : [`-ingester.availability-zone=${plan.zone}`]),
    ];
    const key = args.join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      validateConfig(
        loadConfig(args, {
          readFile: () => text,
          // What the downward API and the S3 Secret give the pods.
          env: {
            POD_IP: '10.0.0.1',
            POD_NAME: `${plan.name}-0`,
            S3_ACCESS_KEY_ID: 'key',
            S3_SECRET_ACCESS_KEY: 'secret',
          },
        }),
      );
    } catch (err) {
      return `spec.configOverrides: ${(err as Error).message.replace(/^config error: /, '')} (-target=${plan.target})`;
    }
  }
  return undefined;
}
