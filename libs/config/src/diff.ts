/**
 * The parts of `current` that differ from `defaults`, keeping the nesting. Lists are compared
 * as a whole. Returns an empty object when nothing differs.
 */
export function diffConfig(current: unknown, defaults: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isMap(current)) return out;
  const base = isMap(defaults) ? defaults : {};
  for (const [key, value] of Object.entries(current)) {
    const def = base[key];
    if (isMap(value) && isMap(def)) {
      const sub = diffConfig(value, def);
      if (Object.keys(sub).length > 0) out[key] = sub;
    } else if (!sameValue(value, def)) {
      out[key] = value;
    }
  }
  return out;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (isMap(a) && isMap(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!sameValue(a[k], b[k])) return false;
    return true;
  }
  return Object.is(a, b);
}
