import { readFile } from 'node:fs/promises';
import { LOGSERVICE_FILE_ENV, type LogServiceView } from '@logsvc/api';
import { type Config, maskSecretsInYaml } from '@logsvc/config';
import { parse, stringify } from 'yaml';
import { httpError } from '../../http/plain-error';
import type { StartupFiles } from '../../startup-files';
import { configYaml } from '../status/config-view';
import { readLogServiceStatus } from './logservice-status';

/** The identity and spec of the LogService file the operator writes (logservice.yaml). */
interface LogServiceFile {
  apiVersion: string;
  name: string;
  namespace: string;
  generation?: number;
  spec: Record<string, unknown>;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The file's content, or why it is not a LogService file. */
function parseLogServiceFile(text: string): LogServiceFile | string {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    return `invalid YAML: ${(err as Error).message.split('\n')[0]}`;
  }
  if (!isMap(doc)) return 'expected a map with kind, metadata and spec';
  if (doc.kind !== 'LogService') return `kind is ${JSON.stringify(doc.kind)}, not LogService`;
  const meta = doc.metadata;
  if (!isMap(meta) || typeof meta.name !== 'string' || typeof meta.namespace !== 'string')
    return 'metadata.name and metadata.namespace must be strings';
  const generation = meta.generation;
  if (generation !== undefined && !Number.isSafeInteger(generation))
    return 'metadata.generation must be an integer';
  if (!isMap(doc.spec)) return 'spec must be a map';
  if (typeof doc.apiVersion !== 'string' || !doc.apiVersion.includes('/'))
    return 'apiVersion must be group/version';
  return {
    apiVersion: doc.apiVersion,
    name: meta.name,
    namespace: meta.namespace,
    ...(generation === undefined ? {} : { generation: generation as number }),
    spec: doc.spec,
  };
}

async function readText(path: string): Promise<string | NodeJS.ErrnoException> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
}

/**
 * `GET /ui/api/logservice`: the LogService this process was rendered from beside the config
 * file it started with. Both files are read on each request: the kubelet updates a mounted
 * ConfigMap in place, so the spec shown is the current one, while the config shown stays the
 * one this process runs until the operator replaces it (configFileChanged tells). The status
 * (rollout progress) is read from the API server on each request.
 */
export async function readLogServiceView(
  files: StartupFiles,
  config: Config,
): Promise<LogServiceView> {
  const path = files.logServiceFile;
  if (path === undefined)
    throw httpError(
      404,
      `no LogService: this process was not started by the logsvc operator (${LOGSERVICE_FILE_ENV} is not set)`,
    );
  const text = await readText(path);
  if (typeof text !== 'string')
    throw httpError(
      text.code === 'ENOENT' ? 404 : 500,
      `no LogService: ${LOGSERVICE_FILE_ENV} names ${path}, which cannot be read: ${text.message}`,
    );
  const resource = parseLogServiceFile(text);
  if (typeof resource === 'string')
    throw httpError(500, `${path} (${LOGSERVICE_FILE_ENV}) is not a LogService file: ${resource}`);

  const started = files.configFile;
  let configFileChanged = false;
  if (started !== undefined) {
    const now = await readText(started.path);
    // A file that cannot be read now says nothing about a change: only a different text does.
    configFileChanged = typeof now === 'string' && now !== started.text;
  }
  return {
    name: resource.name,
    namespace: resource.namespace,
    ...(resource.generation === undefined ? {} : { generation: resource.generation }),
    specYaml: stringify(resource.spec, { lineWidth: 0 }),
    renderedConfigYaml:
      started === undefined ? configYaml(config, '') : maskSecretsInYaml(started.text),
    renderedConfigSource: started === undefined ? 'running-config' : 'config-file',
    configFileChanged,
    status: await readLogServiceStatus(resource),
  };
}
