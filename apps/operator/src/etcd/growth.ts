import type { EtcdPlan } from '@logsvc/operator-render';

/** A member of the etcd cluster as its member list holds it (unstarted: no name yet). */
export interface EtcdMember {
  readonly name: string;
  readonly peerURLs: readonly string[];
}

export type MemberList =
  | { readonly ok: true; readonly members: readonly EtcdMember[] }
  | { readonly ok: false; readonly error: string };

/** The managed etcd's StatefulSet as the cluster has it. */
export interface ObservedEtcdSet {
  readonly replicas: number;
  readonly readyReplicas: number;
  readonly initialClusterState: 'new' | 'existing';
  /** Whether its members talk TLS to each other (`--listen-peer-urls=https://...`). */
  readonly peerTls: boolean;
}

export type EtcdStep =
  /** Render `plan`; nothing to do in etcd. */
  | { readonly kind: 'Steady'; readonly plan: EtcdPlan }
  /** Add `peerUrl` to the member list, then render `plan` (its pod starts and joins). */
  | {
      readonly kind: 'Add';
      readonly plan: EtcdPlan;
      readonly peerUrl: string;
      readonly member: string;
      readonly reason: string;
    }
  /** Growing: render `plan` and look again later. */
  | { readonly kind: 'Wait'; readonly plan: EtcdPlan; readonly reason: string };

export interface EtcdGrowthInput {
  /** `spec.ring.managed.replicas`. */
  readonly desired: number;
  /** Whether a new etcd talks TLS between its members (`spec.tls`). */
  readonly peerTls: boolean;
  /** The StatefulSet's name (`<logservice>-etcd`); member `i` is pod `<name>-i`. */
  readonly name: string;
  readonly peerUrl: (ordinal: number, peerTls: boolean) => string;
  readonly set?: ObservedEtcdSet;
  /** Read only while growing (`needsMembers`). */
  readonly members?: MemberList;
}

/** Whether the step needs the member list: the StatefulSet runs fewer members than wanted. */
export function needsMembers(desired: number, set: ObservedEtcdSet | undefined): boolean {
  return set !== undefined && set.replicas < desired;
}

/**
 * The managed etcd's next step. A new etcd starts with every member at once. One that runs
 * fewer members than the spec asks (grown from 1 to 3) adds them one at a time, as etcd's
 * runtime reconfiguration says: with every current member started and Ready, add the next
 * member's peer URL to the member list, then start its pod with `--initial-cluster-state
 * existing` and the grown member list; the older pods keep running meanwhile (partition).
 * A member count above the spec (the webhook refuses shrinking) is kept.
 */
export function decideEtcd(input: EtcdGrowthInput): EtcdStep {
  const { desired, set } = input;
  if (set === undefined)
    return {
      kind: 'Steady',
      plan: { members: desired, initialClusterState: 'new', peerTls: input.peerTls },
    };
  const r = set.replicas;
  const { peerTls } = set;
  if (r >= desired)
    return {
      kind: 'Steady',
      plan: { members: r, initialClusterState: set.initialClusterState, peerTls },
    };

  const hold = holdPlan(set);
  const next: EtcdPlan = {
    members: r + 1,
    initialClusterState: 'existing',
    partition: r,
    peerTls,
  };
  const member = `${input.name}-${r}`;
  const peer = input.peerUrl(r, peerTls);
  const growing = `growing the managed etcd from ${r} to ${desired} members`;
  const members = input.members;
  if (members === undefined || !members.ok)
    return {
      kind: 'Wait',
      plan: hold,
      reason: `${growing}: reading its member list: ${members?.ok === false ? members.error : 'not read'}`,
    };
  const list = members.members;
  if (list.length === r + 1 && list.some((m) => m.peerURLs.includes(peer)))
    return {
      kind: 'Wait',
      plan: next,
      reason: `${growing}: ${member} was added, starting its pod`,
    };
  if (list.length !== r)
    return {
      kind: 'Wait',
      plan: hold,
      reason: `${growing}: the member list has ${list.length} members and the StatefulSet ${r}; waiting for them to agree`,
    };
  const unstarted = list.filter((m) => m.name === '');
  if (unstarted.length > 0 || set.readyReplicas < r)
    return {
      kind: 'Wait',
      plan: hold,
      reason: `${growing}: waiting for its ${r} member${r === 1 ? '' : 's'} to be started and Ready before adding ${member}`,
    };
  return {
    kind: 'Add',
    plan: next,
    peerUrl: peer,
    member,
    reason: `${growing}: adding ${member}`,
  };
}

/**
 * The plan that keeps a growing set as it was last applied (a grown set keeps its older pods
 * out of the update): for a step that must wait, or a member add etcd refused.
 */
export function holdPlan(set: ObservedEtcdSet): EtcdPlan {
  const { replicas: members, peerTls } = set;
  return set.initialClusterState === 'existing'
    ? { members, initialClusterState: 'existing', partition: members - 1, peerTls }
    : { members, initialClusterState: set.initialClusterState, peerTls };
}

const flagOf = (command: readonly string[] | undefined, name: string): string | undefined =>
  (command ?? []).find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/** `--initial-cluster-state` of an applied etcd StatefulSet (`new` when not found). */
export function initialClusterStateOf(command: readonly string[] | undefined): 'new' | 'existing' {
  return flagOf(command, 'initial-cluster-state') === 'existing' ? 'existing' : 'new';
}

/** Whether an applied etcd StatefulSet's members talk TLS to each other. */
export function peerTlsOfCommand(command: readonly string[] | undefined): boolean {
  return flagOf(command, 'listen-peer-urls')?.startsWith('https://') ?? false;
}

/** What the operator reads of its applied etcd StatefulSet's container command. */
export function observedFlags(
  command: readonly string[] | undefined,
): Pick<ObservedEtcdSet, 'initialClusterState' | 'peerTls'> {
  return {
    initialClusterState: initialClusterStateOf(command),
    peerTls: peerTlsOfCommand(command),
  };
}
