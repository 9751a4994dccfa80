import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as template from '@logsvc/gotemplate';
import { parse, parseAllDocuments } from 'yaml';
import { helmFunctions } from './functions';
import { mergeValues, toValue } from './values';

export interface ReleaseOptions {
  readonly name: string;
  readonly namespace: string;
  /** Values over the chart's values.yaml. */
  readonly values?: Record<string, unknown>;
}

export interface RenderedChart {
  /** `crds/` files, as Helm installs them before the templates (not templated). */
  readonly crds: Record<string, unknown>[];
  /** Every object of every rendered template, in file order. */
  readonly objects: Record<string, unknown>[];
  /** Rendered text by template path (`templates/deployment.yaml`). */
  readonly files: Record<string, string>;
}

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
}

const yamlObjects = (text: string): Record<string, unknown>[] =>
  parseAllDocuments(text)
    .map((d) => d.toJS() as Record<string, unknown> | null)
    .filter((d): d is Record<string, unknown> => d !== null && typeof d === 'object');

/**
 * Renders a Helm chart the way `helm template` does for what charts here use: the templates
 * share one set of `define`s, `.Values` is values.yaml with the overrides merged in, `.Release`
 * and `.Chart` are set, files starting with `_` and NOTES.txt render nothing.
 */
export function renderChart(chartDir: string, release: ReleaseOptions): RenderedChart {
  const chart = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as Record<
    string,
    unknown
  >;
  const values = mergeValues(
    parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) ?? {},
    release.values ?? {},
  );
  const templatesDir = join(chartDir, 'templates');
  const sources: Record<string, string> = {};
  for (const path of walk(templatesDir))
    sources[relative(chartDir, path)] = readFileSync(path, 'utf8');
  const set = template.compileGoTemplateSet(sources, helmFunctions);

  const dot = toValue({
    Values: values,
    Release: {
      Name: release.name,
      Namespace: release.namespace,
      Service: 'Helm',
      IsInstall: true,
      IsUpgrade: false,
      Revision: 1,
    },
    Chart: { Name: chart.name, Version: chart.version, AppVersion: chart.appVersion },
    Capabilities: { KubeVersion: { Version: 'v1.20.2', Major: '1', Minor: '20' } },
  });
  const files: Record<string, string> = {};
  const objects: Record<string, unknown>[] = [];
  for (const path of Object.keys(sources)) {
    const base = path.split('/').pop()!;
    if (base.startsWith('_') || base === 'NOTES.txt') continue;
    const text = set.execute(path, dot);
    files[path] = text;
    objects.push(...yamlObjects(text));
  }
  const crdsDir = join(chartDir, 'crds');
  const crds = walk(crdsDir).flatMap((p) => yamlObjects(readFileSync(p, 'utf8')));
  return { crds, objects, files };
}
