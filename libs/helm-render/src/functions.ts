import * as template from '@logsvc/gotemplate';
import { stringify } from 'yaml';
import { fromValue } from './values';

type Value = template.Value;
type FuncDef = template.FuncDef;

// Helm's functions the charts use, beyond Go's builtins and the Sprig functions that Loki's
// template engine already has (default, contains, replace, trimSuffix, indent, nindent, ...).

const isEmpty = (v: Value): boolean =>
  v === undefined ||
  v === null ||
  v === '' ||
  v === false ||
  v === 0 ||
  v === 0n ||
  (Array.isArray(v) && v.length === 0) ||
  (v instanceof Map && v.size === 0);

export function helmFunctions(run: (name: string, dot: Value) => string): template.FuncMap {
  const fns = new Map<string, FuncDef>(template.TEMPLATE_FUNCTIONS);
  const set = (name: string, def: FuncDef) => fns.set(name, def);
  set('include', { params: ['string', 'any'], call: ([name, dot]) => run(name as string, dot) });
  // Go's yaml.Marshal output without the trailing newline, as Helm's toYaml.
  set('toYaml', {
    params: ['any'],
    call: ([v]) =>
      isEmpty(v) && !(v instanceof Map)
        ? ''
        : stringify(fromValue(v), { sortMapEntries: true, lineWidth: 0 }).replace(/\n$/, ''),
  });
  set('trunc', {
    params: ['int', 'string'],
    call: ([n, s]) => {
      const len = Number(n as bigint);
      const str = s as string;
      return len >= 0 ? str.slice(0, len) : str.slice(Math.max(0, str.length + len));
    },
  });
  set('quote', {
    params: [],
    variadic: 'any',
    call: (args) =>
      args
        .filter((a) => a !== undefined && a !== null)
        .map((a) => JSON.stringify(typeof a === 'string' ? a : template.formatValue(a)))
        .join(' '),
  });
  set('empty', { params: ['any'], call: ([v]) => isEmpty(v) });
  set('required', {
    params: ['string', 'any'],
    call: ([message, v]) => {
      if (v === undefined || v === null || v === '')
        throw new template.FuncError(message as string);
      return v;
    },
  });
  set('fail', {
    params: ['string'],
    call: ([message]) => {
      throw new template.FuncError(message as string);
    },
  });
  return fns;
}
