// Copy-on-write edits of a ring: each member changes only its own entry, everything else is
// carried over as read.

import type { InstanceDesc, RingDesc } from './types';

/** `desc` with `instance` added or replacing the entry of its id. */
export function withInstance(desc: RingDesc, instance: InstanceDesc): RingDesc {
  return { instances: { ...desc.instances, [instance.id]: instance } };
}

/** `desc` without the entry `id`. */
export function withoutInstance(desc: RingDesc, id: string): RingDesc {
  const instances = { ...desc.instances };
  delete instances[id];
  return { instances };
}

/** Every token of the ring's members. */
export function allTokens(desc: RingDesc): Set<number> {
  const taken = new Set<number>();
  for (const instance of Object.values(desc.instances))
    for (const t of instance.tokens) taken.add(t);
  return taken;
}
