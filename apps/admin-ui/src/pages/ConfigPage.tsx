import { useState } from 'react';
import { type ConfigSource, SOURCE_TITLES, useSource, useSources } from '../api/config-sources';
import { useFeatures } from '../api/features';
import { useLiveInstances } from '../api/instances';
import { DiffView } from '../components/DiffView';
import { ErrorMessage } from '../components/ErrorMessage';
import { useTitle } from '../router';
import { LogServicePanel } from './LogServicePanel';
import { TenantOverrides } from './TenantOverrides';

type View = 'side' | 'any' | 'defaults' | 'instances' | 'logservice' | 'overrides';

const VIEWS: readonly (readonly [View, string])[] = [
  ['side', 'Side by side'],
  ['any', 'Diff of any two'],
  ['defaults', 'Diff against the defaults'],
  ['instances', 'Diff between two instances'],
];
const LOGSERVICE_VIEW = ['logservice', 'LogService spec vs rendered config'] as const;
const OVERRIDES_VIEW = ['overrides', 'Per-tenant overrides'] as const;

function Picker(props: {
  label: string;
  value: string | undefined;
  options: readonly string[];
  titles?: Record<string, string>;
  onChange: (v: string) => void;
}) {
  const id = `pick-${props.label.replace(/\W+/g, '-')}`;
  return (
    <span>
      <label htmlFor={id}>{props.label}</label>{' '}
      <select id={id} value={props.value ?? ''} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map((o) => (
          <option key={o} value={o}>
            {props.titles?.[o] ?? o}
          </option>
        ))}
      </select>
    </span>
  );
}

/** Every source of one instance in columns: file as written, running, defaults, spec. */
function SideBySide({ id, servesUi }: { id: string; servesUi: boolean }) {
  const sources = useSources(id, servesUi);
  const shown = sources.filter((s) => s !== 'changed');
  return (
    <div className="side-by-side" style={{ gridTemplateColumns: `repeat(${shown.length}, 1fr)` }}>
      {shown.map((s) => (
        <SourceColumn key={s} id={id} source={s} sources={sources} />
      ))}
    </div>
  );
}

function SourceColumn(props: { id: string; source: ConfigSource; sources: ConfigSource[] }) {
  const text = useSource(props.id, props.source, props.sources);
  const title =
    props.source === 'running' ? `Running config of ${props.id}` : SOURCE_TITLES[props.source];
  return (
    <div>
      <h2>{title}</h2>
      <ErrorMessage error={text.error} />
      <pre className="code-block" tabIndex={0} aria-label={title}>
        {text.data ?? ''}
      </pre>
    </div>
  );
}

/** The diff of two sources, each of any instance. */
function SourceDiff(props: {
  left: { id: string; source: ConfigSource };
  right: { id: string; source: ConfigSource };
  onlyChanges: boolean;
  leftSources: ConfigSource[];
  rightSources: ConfigSource[];
}) {
  const left = useSource(props.left.id, props.left.source, props.leftSources);
  const right = useSource(props.right.id, props.right.source, props.rightSources);
  const title = (side: { id: string; source: ConfigSource }) =>
    side.source === 'defaults' ? 'Defaults' : `${SOURCE_TITLES[side.source]} of ${side.id}`;
  return (
    <>
      <ErrorMessage error={left.error ?? right.error} />
      {left.data !== undefined && right.data !== undefined && (
        <DiffView
          left={left.data}
          right={right.data}
          leftTitle={title(props.left)}
          rightTitle={title(props.right)}
          onlyChanges={props.onlyChanges}
        />
      )}
    </>
  );
}

/**
 * Any instance's config file as written, running config, defaults and (in Kubernetes)
 * LogService spec side by side; any two of them, of any instances, as a diff that keeps the
 * section paths; the LogService spec related to the config it rendered; the per-tenant
 * overrides.
 */
export function ConfigPage() {
  useTitle('Configuration');
  // A process that stopped reporting answers nothing: it is not offered.
  const instances = useLiveInstances();
  const live = instances.data ?? [];
  const ids = live.map((i) => i.id);
  const servesUi = (id: string | undefined) =>
    live.find((i) => i.id === id)?.targets.includes('ui') ?? false;
  // The LogService view is offered where the process that served the page has one.
  const served = useFeatures();
  const inKubernetes = served.data?.logservice === true;
  const [view, setView] = useState<View>('side');
  const [left, setLeft] = useState<string>();
  const [right, setRight] = useState<string>();
  const [leftSource, setLeftSource] = useState<ConfigSource>('defaults');
  const [rightSource, setRightSource] = useState<ConfigSource>('running');
  const [onlyChanges, setOnlyChanges] = useState(false);
  const self = instances.data?.find((i) => i.self)?.id;
  const a = left ?? (view === 'logservice' ? (self ?? ids[0]) : ids[0]);
  const b = right ?? (view === 'any' ? a : (ids[1] ?? ids[0]));
  const leftSources = useSources(a, servesUi(a));
  const rightSources = useSources(b, servesUi(b));
  const views = [...VIEWS, ...(inKubernetes ? [LOGSERVICE_VIEW] : []), OVERRIDES_VIEW];
  const pair = (() => {
    if (a === undefined || b === undefined) return undefined;
    if (view === 'defaults')
      return {
        left: { id: a, source: 'defaults' as const },
        right: { id: a, source: 'running' as const },
      };
    if (view === 'instances')
      return {
        left: { id: a, source: 'running' as const },
        right: { id: b, source: 'running' as const },
      };
    if (view === 'any')
      return { left: { id: a, source: leftSource }, right: { id: b, source: rightSource } };
    return undefined;
  })();
  return (
    <section>
      <h1>Configuration</h1>
      <fieldset className="row">
        <legend>Show</legend>
        {views.map(([v, label]) => (
          <label key={v}>
            <input type="radio" name="view" checked={view === v} onChange={() => setView(v)} />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {view !== 'overrides' && (
        <p className="row">
          <Picker
            label={view === 'instances' || view === 'any' ? 'Left' : 'Instance'}
            value={a}
            options={ids}
            onChange={setLeft}
          />
          {view === 'any' && (
            <Picker
              label="Left source"
              value={leftSource}
              options={leftSources}
              titles={SOURCE_TITLES}
              onChange={(v) => setLeftSource(v as ConfigSource)}
            />
          )}
          {(view === 'instances' || view === 'any') && (
            <Picker label="Right" value={b} options={ids} onChange={setRight} />
          )}
          {view === 'any' && (
            <Picker
              label="Right source"
              value={rightSource}
              options={rightSources}
              titles={SOURCE_TITLES}
              onChange={(v) => setRightSource(v as ConfigSource)}
            />
          )}
          {view !== 'side' && (
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
      )}
      <ErrorMessage error={instances.error ?? served.error} />
      {view === 'side' && a !== undefined && <SideBySide id={a} servesUi={servesUi(a)} />}
      {pair && (
        <SourceDiff
          {...pair}
          onlyChanges={onlyChanges}
          leftSources={leftSources}
          rightSources={rightSources}
        />
      )}
      {view === 'logservice' && a !== undefined && (
        <LogServicePanel id={a} onlyChanges={onlyChanges} />
      )}
      {view === 'overrides' && <TenantOverrides />}
    </section>
  );
}
