import { useMemo, useState } from 'react';
import { useConfig, useLogService } from '../api/config';
import { ApiError } from '../api/http';
import { ErrorMessage } from '../components/ErrorMessage';
import { type LineMark, MarkedLines } from '../components/MarkedLines';
import { relateLines } from '../lib/logservice-lines';
import { LogServiceStatus } from './LogServiceStatus';

const lineList = (lines: readonly number[]) =>
  lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(', ')}`;

/**
 * In a Kubernetes deployment: the LogService spec an instance was rendered from beside the
 * config file it started with. Config lines that differ from logsvc's defaults are highlighted
 * (what the spec changed), and so are the spec lines they come from; pointing at one outlines
 * the other. Above them, the LogService's status from the API server (rollout progress).
 */
export function LogServicePanel({ id, onlyChanges }: { id: string; onlyChanges: boolean }) {
  const view = useLogService(id);
  const diff = useConfig(id, 'diff');
  const defaults = useConfig(id, 'defaults');
  const [pointed, setPointed] = useState<{ side: 'spec' | 'config'; line: number }>();

  const related = useMemo(
    () =>
      view.data && diff.data !== undefined && defaults.data !== undefined
        ? relateLines(view.data.specYaml, view.data.renderedConfigYaml, diff.data, defaults.data)
        : undefined,
    [view.data, diff.data, defaults.data],
  );
  const marks = useMemo(() => {
    const config = new Map<number, LineMark>();
    const spec = new Map<number, LineMark>();
    for (const [line, setting] of related?.config ?? []) {
      const fromDefault =
        setting.defaultText === undefined
          ? `${setting.path} has no default`
          : `${setting.path} differs from the default ${setting.defaultText}`;
      const from = setting.specLines.length > 0 ? `, from spec ${lineList(setting.specLines)}` : '';
      config.set(line, { label: fromDefault + from });
    }
    for (const [line, configLines] of related?.spec ?? [])
      spec.set(line, { label: `sets config ${lineList(configLines)}` });
    return { config, spec };
  }, [related]);
  // The partners of the pointed line: a config setting's spec lines, a spec line's settings.
  const linked = useMemo(() => {
    const spec = new Set<number>();
    const config = new Set<number>();
    if (pointed?.side === 'config') {
      const setting = related?.config.get(pointed.line);
      for (const line of setting?.specLines ?? []) spec.add(line);
      for (const [line, s] of related?.config ?? []) if (s === setting) config.add(line);
    } else if (pointed?.side === 'spec') {
      spec.add(pointed.line);
      for (const first of related?.spec.get(pointed.line) ?? []) {
        const setting = related?.config.get(first);
        for (const [line, s] of related?.config ?? []) if (s === setting) config.add(line);
      }
    }
    return { spec, config };
  }, [pointed, related]);

  if (view.error instanceof ApiError && view.error.status === 404)
    return (
      <p className="error" role="alert">
        {id} has no LogService view: it does not run the ui component or was not started by the
        logsvc operator ({view.error.message}).
      </p>
    );
  const error = view.error ?? diff.error ?? defaults.error;
  if (error) return <ErrorMessage error={error} />;
  if (!view.data || !related) return <p role="status">Loading…</p>;
  const ls = view.data;
  const generation = ls.generation === undefined ? '' : `, generation ${ls.generation}`;
  return (
    <div>
      <p role="status">
        {related.changedSettings === 1
          ? '1 setting of the rendered config differs'
          : `${related.changedSettings} settings of the rendered config differ`}{' '}
        from logsvc&apos;s defaults;{' '}
        {related.spec.size === 1 ? '1 spec line sets' : `${related.spec.size} spec lines set`}{' '}
        {related.changedSettings === 1 ? 'it' : 'them'}.
      </p>
      {/* A process of an older logsvc answers no status. */}
      {ls.status !== undefined && <LogServiceStatus status={ls.status} now={Date.now()} />}
      {ls.configFileChanged && (
        <p className="note" role="note">
          The config file of {id} changed since it started: the spec may be newer than the config it
          runs. It runs the new one once the operator replaces it.
        </p>
      )}
      {ls.renderedConfigSource === 'running-config' && (
        <p className="note" role="note">
          {id} started without a config file: its running config is shown.
        </p>
      )}
      <div className="two-col">
        <MarkedLines
          title={`LogService ${ls.namespace}/${ls.name}${generation}: spec`}
          text={ls.specYaml}
          marks={marks.spec}
          onlyMarked={onlyChanges}
          linked={linked.spec}
          onPoint={(line) => setPointed(line === undefined ? undefined : { side: 'spec', line })}
        />
        <MarkedLines
          title={`Rendered config of ${id}`}
          text={ls.renderedConfigYaml}
          marks={marks.config}
          onlyMarked={onlyChanges}
          linked={linked.config}
          onPoint={(line) => setPointed(line === undefined ? undefined : { side: 'config', line })}
        />
      </div>
    </div>
  );
}
