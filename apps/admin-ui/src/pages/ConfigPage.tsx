import { useState } from 'react';
import { useConfig, useServedLogService } from '../api/config';
import { useReportingInstances } from '../api/instances';
import { DiffView } from '../components/DiffView';
import { ErrorMessage } from '../components/ErrorMessage';
import { useTitle } from '../router';
import { LogServicePanel } from './LogServicePanel';

type View = 'running' | 'defaults' | 'instances' | 'logservice';

const VIEWS: readonly (readonly [View, string])[] = [
  ['running', 'Running config'],
  ['defaults', 'Diff against the defaults'],
  ['instances', 'Diff between two instances'],
];
const LOGSERVICE_VIEW = ['logservice', 'LogService spec vs rendered config'] as const;

/**
 * The running config of any instance, its diff against the defaults, or two instances'; in a
 * Kubernetes deployment also the LogService spec beside the config it rendered.
 */
export function ConfigPage() {
  useTitle('Configuration');
  const instances = useReportingInstances();
  const ids = instances.data?.map((i) => i.id) ?? [];
  // Offered only where the process that served the page has a LogService (Kubernetes).
  const inKubernetes = useServedLogService().isSuccess;
  const [view, setView] = useState<View>('running');
  const [left, setLeft] = useState<string>();
  const [right, setRight] = useState<string>();
  const [onlyChanges, setOnlyChanges] = useState(false);
  // The LogService view starts at the process that served the page, which has one.
  const served = instances.data?.find((i) => i.self)?.id;
  const a = left ?? (view === 'logservice' ? (served ?? ids[0]) : ids[0]);
  const b = right ?? ids[1] ?? ids[0];
  const running = useConfig(view === 'logservice' ? undefined : a, '');
  const changed = useConfig(view === 'running' ? a : undefined, 'diff');
  const defaults = useConfig(view === 'defaults' ? a : undefined, 'defaults');
  const other = useConfig(view === 'instances' ? b : undefined, '');
  const picker = (label: string, value: string | undefined, set: (v: string) => void) => (
    <span>
      <label htmlFor={`pick-${label}`}>{label}</label>{' '}
      <select id={`pick-${label}`} value={value ?? ''} onChange={(e) => set(e.target.value)}>
        {ids.map((id) => (
          <option key={id}>{id}</option>
        ))}
      </select>
    </span>
  );
  return (
    <section>
      <h1>Configuration</h1>
      <fieldset className="row">
        <legend>Show</legend>
        {(inKubernetes ? [...VIEWS, LOGSERVICE_VIEW] : VIEWS).map(([v, label]) => (
          <label key={v}>
            <input type="radio" name="view" checked={view === v} onChange={() => setView(v)} />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <p className="row">
        {picker(view === 'instances' ? 'Left' : 'Instance', a, setLeft)}
        {view === 'instances' && picker('Right', b, setRight)}
        {view !== 'running' && (
          <label>
            <input
              type="checkbox"
              checked={onlyChanges}
              onChange={(e) => setOnlyChanges(e.target.checked)}
            />{' '}
            Only differing lines
          </label>
        )}
      </p>
      <ErrorMessage error={instances.error ?? running.error ?? defaults.error ?? other.error} />
      {view === 'running' && running.data !== undefined && (
        <div className="two-col">
          <div>
            <h2>Running config of {a}</h2>
            <pre className="code-block" tabIndex={0}>
              {running.data}
            </pre>
          </div>
          <div>
            <h2>Set differently from the defaults</h2>
            <pre className="code-block" tabIndex={0}>
              {changed.data ?? ''}
            </pre>
          </div>
        </div>
      )}
      {view === 'defaults' && running.data !== undefined && defaults.data !== undefined && (
        <DiffView
          left={defaults.data}
          right={running.data}
          leftTitle="Defaults"
          rightTitle={`Running config of ${a}`}
          onlyChanges={onlyChanges}
        />
      )}
      {view === 'logservice' && a !== undefined && (
        <LogServicePanel id={a} onlyChanges={onlyChanges} />
      )}
      {view === 'instances' && running.data !== undefined && other.data !== undefined && (
        <DiffView
          left={running.data}
          right={other.data}
          leftTitle={a ?? ''}
          rightTitle={b ?? ''}
          onlyChanges={onlyChanges}
        />
      )}
    </section>
  );
}
