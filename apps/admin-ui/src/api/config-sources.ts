// The texts the Configuration page compares, for any instance: its config file as written, its
// running config, the defaults, what it sets differently, and its LogService spec.
import { CONFIG_FILE_PATH, LOGSERVICE_PATH, type LogServiceView } from '@logsvc/api/browser';
import { useQuery } from '@tanstack/react-query';
import { useFeatures } from './features';
import { getJson, getText } from './http';
import { instancePath } from './instance';

export type ConfigSource = 'file' | 'running' | 'defaults' | 'changed' | 'spec';

export const SOURCE_TITLES: Record<ConfigSource, string> = {
  file: 'Config file as written',
  running: 'Running config',
  defaults: 'Defaults',
  changed: 'Set differently from the defaults',
  spec: 'LogService spec',
};

/**
 * The sources an instance has: a config file only if it started with one, a spec in Kubernetes;
 * both are served by the `ui` component, so an instance without it (`servesUi` false) has
 * neither and is not asked.
 */
export function useSources(id: string | undefined, servesUi: boolean): ConfigSource[] {
  const features = useFeatures(id, !!id && servesUi).data;
  const out: ConfigSource[] = [];
  if (features?.config_file) out.push('file');
  out.push('running', 'defaults', 'changed');
  if (features?.logservice) out.push('spec');
  return out;
}

async function fetchSource(id: string, source: ConfigSource): Promise<string> {
  switch (source) {
    case 'file':
      return getText(instancePath(id, CONFIG_FILE_PATH));
    case 'spec':
      return (await getJson<LogServiceView>(instancePath(id, LOGSERVICE_PATH))).specYaml;
    case 'defaults':
      return getText(instancePath(id, '/config'), { params: { mode: 'defaults' } });
    case 'changed':
      return getText(instancePath(id, '/config'), { params: { mode: 'diff' } });
    default:
      return getText(instancePath(id, '/config'));
  }
}

/** One source's text; asked only when the instance has it (`sources`). */
export function useSource(id: string | undefined, source: ConfigSource, sources: ConfigSource[]) {
  return useQuery({
    queryKey: ['config-source', id, source],
    queryFn: () => fetchSource(id!, source),
    enabled: !!id && sources.includes(source),
  });
}
