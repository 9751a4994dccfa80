import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSpec, type LogServiceSpec } from '@logsvc/operator-api';
import { renderAll, type EtcdPlan, type Manifest } from '@logsvc/operator-render';
import { afterAll, describe, expect, it } from 'vitest';
import {
  decideEtcd,
  holdPlan,
  initialClusterStateOf,
  type ObservedEtcdSet,
} from '../src/etcd/growth';
import { GatewayEtcdAccess, postJson, type EtcdTarget } from '../src/etcd/members';
import { freePort } from './support/free-port';
import { waitFor } from './support/control-plane';

// The managed etcd grown from 1 to 3 members for real: Debian's etcd runs the command of the
// rendered StatefulSet (DNS names mapped to 127.0.0.1 ports), this test plays the StatefulSet
// controller, and decideEtcd + the member API do what the operator does at each reconcile.

const owner = { name: 'logs', namespace: 'ns', uid: 'u' };

function specOf(replicas: number): LogServiceSpec {
  const parsed = parseSpec({
    version: '0.1.0',
    mode: 'Microservices',
    storage: { sharedClaimName: 'shared' },
    ring: { store: 'managed', managed: { replicas } },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.spec;
}

interface Member {
  readonly client: number;
  readonly peer: number;
  readonly dir: string;
  process?: ChildProcess;
  log: string;
}

describe('managed etcd growth from 1 to 3 members (real etcd)', () => {
  const members: Member[] = [];
  const root = mkdtempSync(join(tmpdir(), 'logsvc-etcd-growth-'));

  // Also when the worker exits early (a failed or timed-out test): no etcd is left running.
  const cleanUp = () => {
    for (const m of members) m.process?.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', cleanUp);

  afterAll(() => {
    process.removeListener('exit', cleanUp);
    cleanUp();
  });

  const etcdSet = (manifests: Manifest[]) =>
    manifests.find(
      (m) => m.kind === 'StatefulSet' && m.metadata.name === 'logs-etcd',
    ) as Manifest & {
      spec: {
        replicas: number;
        updateStrategy: { rollingUpdate?: { partition?: number } };
        template: { spec: { containers: { command: string[] }[] } };
      };
    };

  /** Pod `ordinal`'s command: the rendered one, names and ports mapped to this machine. */
  const commandOf = (command: string[], ordinal: number): string[] => {
    let text = JSON.stringify(command.slice(1)).replaceAll('$(POD_NAME)', `logs-etcd-${ordinal}`);
    members.forEach((m, i) => {
      text = text
        .replaceAll(`logs-etcd-${i}.logs-etcd-headless:2380`, `127.0.0.1:${m.peer}`)
        .replaceAll(`logs-etcd-${i}.logs-etcd-headless:2379`, `127.0.0.1:${m.client}`);
    });
    const own = members[ordinal];
    text = text
      .replace('0.0.0.0:2379', `127.0.0.1:${own.client}`)
      .replace('0.0.0.0:2380', `127.0.0.1:${own.peer}`)
      .replace('/var/etcd/data', own.dir);
    return [...(JSON.parse(text) as string[]), '--log-level=error', '--logger=zap'];
  };

  const healthy = async (m: Member) => {
    try {
      const res = await fetch(`http://127.0.0.1:${m.client}/health`, {
        signal: AbortSignal.timeout(2000),
      });
      return res.status === 200 && (await res.text()).includes('"health":"true"');
    } catch {
      return false;
    }
  };

  const access = new GatewayEtcdAccess((target, path, body) =>
    postJson(
      `http://127.0.0.1:${members[Number(target.pod.split('-').pop())].client}${path}`,
      body,
    ),
  );
  const target: EtcdTarget = { namespace: 'ns', pod: 'logs-etcd-0', logService: 'logs' };

  it('adds one member at a time, each joining the running cluster, keeping the data', async () => {
    for (let i = 0; i < 3; i++)
      members.push({
        client: await freePort(),
        peer: await freePort(),
        dir: join(root, `m${i}`),
        log: '',
      });
    const peerUrl = (i: number) => `http://127.0.0.1:${members[i].peer}`;
    const start = (ordinal: number, manifests: Manifest[]) => {
      const m = members[ordinal];
      const command = etcdSet(manifests).spec.template.spec.containers[0].command;
      m.process = spawn('etcd', commandOf(command, ordinal), {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      m.process.stderr?.on('data', (c: Buffer) => (m.log = (m.log + c.toString()).slice(-3000)));
    };

    // Born with 1 member (the previous default).
    let manifests = renderAll(owner, specOf(1), { pdbApiVersion: 'policy/v1' }).manifests;
    start(0, manifests);
    await waitFor('member 0 healthy', () => healthy(members[0]), 20_000);
    await postJson(`http://127.0.0.1:${members[0].client}/v3/kv/put`, {
      key: Buffer.from('ring').toString('base64'),
      value: Buffer.from('kept').toString('base64'),
    });

    // The spec asks for 3: reconcile until the StatefulSet (this test) runs 3 healthy members.
    const spec = specOf(3);
    const added: string[] = [];
    let refusals = 0;
    const deadline = Date.now() + 90_000;
    for (;;) {
      expect(Date.now(), 'growth within 90s').toBeLessThan(deadline);
      const sts = etcdSet(manifests);
      const running = members.filter((m) => m.process !== undefined);
      const ready = (await Promise.all(running.map(healthy))).filter(Boolean).length;
      const set: ObservedEtcdSet = {
        replicas: sts.spec.replicas,
        readyReplicas: ready,
        initialClusterState: initialClusterStateOf(sts.spec.template.spec.containers[0].command),
      };
      if (set.replicas === 3 && ready === 3) break;
      const step = decideEtcd({
        desired: 3,
        name: 'logs-etcd',
        peerUrl,
        set,
        members: await access.listMembers(target),
      });
      let plan: EtcdPlan = step.plan;
      if (step.kind === 'Add') {
        try {
          await access.addMember(target, step.peerUrl);
          added.push(step.member);
        } catch (err) {
          // etcd refuses an add until the newest member has been connected for 5s (strict
          // reconfiguration): the operator keeps the StatefulSet as it is and tries again.
          expect((err as Error).message).toContain('unhealthy cluster');
          refusals++;
          plan = holdPlan(set);
        }
      }
      manifests = renderAll(owner, spec, { pdbApiVersion: 'policy/v1' }, spec, {
        etcd: plan,
      }).manifests;
      const replicas = etcdSet(manifests).spec.replicas;
      // The StatefulSet controller: starts the pods it lacks, with the template as it is now.
      for (let i = 0; i < replicas; i++) if (members[i].process === undefined) start(i, manifests);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(added).toEqual(['logs-etcd-1', 'logs-etcd-2']);
    expect(refusals).toBeLessThan(30);
    const list = await access.listMembers(target);
    expect(list.ok && list.members.map((m) => m.name).sort()).toEqual([
      'logs-etcd-0',
      'logs-etcd-1',
      'logs-etcd-2',
    ]);
    // The grown set: every member's flags now name the 3 of them, joining as `existing`.
    const command = etcdSet(manifests).spec.template.spec.containers[0].command;
    expect(initialClusterStateOf(command)).toBe('existing');
    // The data written before growth is served by the newest member.
    const res = await postJson(`http://127.0.0.1:${members[2].client}/v3/kv/range`, {
      key: Buffer.from('ring').toString('base64'),
      serializable: true,
    });
    const kv = (JSON.parse(res.text) as { kvs?: { value: string }[] }).kvs?.[0];
    expect(Buffer.from(kv?.value ?? '', 'base64').toString()).toBe('kept');
  }, 120_000);
});
