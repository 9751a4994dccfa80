import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSpec, type LogServiceSpec } from '@logsvc/operator-api';
import {
  etcdPeerHost,
  etcdPeerNames,
  etcdPeerUrl,
  renderAll,
  type EtcdPlan,
  type Manifest,
} from '@logsvc/operator-render';
import { makeCa, signCert, writeExtensions } from '@logsvc/rpc/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { decideEtcd, holdPlan, observedFlags, type ObservedEtcdSet } from '../src/etcd/growth';
import { GatewayEtcdAccess, postJson, type EtcdTarget } from '../src/etcd/members';
import { freePort } from './support/free-port';
import { waitFor } from './support/control-plane';

// The managed etcd grown from 1 to 3 members for real: Debian's etcd runs the command of the
// rendered StatefulSet (ports mapped to free 127.0.0.1 ports), this test plays the StatefulSet
// controller, and decideEtcd + the member API do what the operator does at each reconcile.
// With spec.tls the members talk mutual TLS to each other by their peer names, which resolve
// to 127.0.0.1 through an /etc/hosts of the etcd processes' own (a user and mount namespace,
// `unshare -rm`), with an openssl-made certificate carrying the names docs/operator.md lists.

const owner = { name: 'logs', namespace: 'ns', uid: 'u' };

function specOf(replicas: number, tls: boolean): LogServiceSpec {
  const parsed = parseSpec({
    version: '0.1.0',
    mode: 'Microservices',
    storage: { sharedClaimName: 'shared' },
    ring: { store: 'managed', managed: { replicas } },
    ...(tls ? { tls: { secretName: 'logs-tls' } } : {}),
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.spec;
}

interface Member {
  readonly client: number;
  readonly peer: number;
  readonly metrics: number;
  readonly dir: string;
  process?: ChildProcess;
  log: string;
}

/** Whether this machine lets a user make a user and mount namespace (for the private hosts). */
function canUnshare(): boolean {
  try {
    execFileSync('unshare', ['-rm', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The CA and the members' certificate (tls.crt, tls.key, ca.crt in `dir`), and the hosts. */
function writePki(dir: string): void {
  makeCa(dir, 'ca');
  const names = ['logs-grpc', ...etcdPeerNames(owner)];
  writeExtensions(dir, [
    `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
    'extendedKeyUsage=serverAuth,clientAuth',
    'keyUsage=digitalSignature,keyEncipherment',
  ]);
  signCert(dir, 'tls', 'ca');
  // The peer names and the names the pods' IPs look up to in a cluster's DNS.
  const hosts = [0, 1, 2].flatMap((i) => [
    `${etcdPeerHost(owner, i)}.${owner.namespace}.svc.cluster.local`,
    etcdPeerHost(owner, i),
  ]);
  writeFileSync(join(dir, 'hosts'), `127.0.0.1 localhost ${hosts.join(' ')}\n`);
}

describe.each([
  { tls: false, skip: false },
  { tls: true, skip: !canUnshare() },
])('managed etcd growth from 1 to 3 members (real etcd, spec.tls: $tls)', ({ tls, skip }) => {
  const members: Member[] = [];
  const root = mkdtempSync(join(tmpdir(), 'logsvc-etcd-growth-'));
  const pki = join(root, 'pki');
  const file = (name: string) => readFileSync(join(pki, name), 'utf8');

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
  /** A peer URL as this machine has it: by name with TLS (the private hosts), else by IP. */
  const mapUrl = (text: string) => {
    members.forEach((m, i) => {
      const host = etcdPeerHost(owner, i);
      text = text
        .replaceAll(`${host}:2380`, tls ? `${host}:${m.peer}` : `127.0.0.1:${m.peer}`)
        .replaceAll(`${host}:2379`, `127.0.0.1:${m.client}`);
    });
    return text;
  };
  const commandOf = (command: string[], ordinal: number): string[] => {
    const own = members[ordinal];
    const text = mapUrl(
      JSON.stringify(command.slice(1)).replaceAll('$(POD_NAME)', `logs-etcd-${ordinal}`),
    )
      .replace('0.0.0.0:2379', `127.0.0.1:${own.client}`)
      .replace('0.0.0.0:2380', `127.0.0.1:${own.peer}`)
      .replace('0.0.0.0:2381', `127.0.0.1:${own.metrics}`)
      .replace('/var/etcd/data', own.dir)
      .replaceAll('/etc/etcd-tls', pki);
    return [...(JSON.parse(text) as string[]), '--log-level=error', '--logger=zap'];
  };

  const healthy = async (m: Member) => {
    try {
      const res = await fetch(`http://127.0.0.1:${tls ? m.metrics : m.client}/health`, {
        signal: AbortSignal.timeout(2000),
      });
      return res.status === 200 && (await res.text()).includes('"health":"true"');
    } catch {
      return false;
    }
  };

  /** POSTs to member `ordinal`'s client port, with the cluster's client certificate. */
  const post = (ordinal: number, path: string, body: unknown) =>
    postJson(
      `${tls ? 'https' : 'http'}://127.0.0.1:${members[ordinal].client}${path}`,
      body,
      tls
        ? {
            ca: file('ca.crt'),
            cert: file('tls.crt'),
            key: file('tls.key'),
            servername: 'logs-grpc',
          }
        : undefined,
    );
  const access = new GatewayEtcdAccess((target, path, body) =>
    post(Number(target.pod.split('-').pop()), path, body),
  );
  const target: EtcdTarget = { namespace: 'ns', pod: 'logs-etcd-0', logService: 'logs' };

  it.skipIf(skip)(
    'adds one member at a time, each joining the running cluster, keeping the data',
    async () => {
      for (let i = 0; i < 3; i++)
        members.push({
          client: await freePort(),
          peer: await freePort(),
          metrics: await freePort(),
          dir: join(root, `m${i}`),
          log: '',
        });
      if (tls) {
        mkdirSync(pki);
        writePki(pki);
      }
      // The operator's peer URL of member i (https with spec.tls), as this machine has it.
      const peerUrl = (i: number, peerTls: boolean) => mapUrl(etcdPeerUrl(owner, i, peerTls));
      const start = (ordinal: number, manifests: Manifest[]) => {
        const m = members[ordinal];
        const command = etcdSet(manifests).spec.template.spec.containers[0].command;
        const args = commandOf(command, ordinal);
        // With TLS: in a namespace of its own, where /etc/hosts names the peers.
        const hosts = `mount --bind ${join(pki, 'hosts')} /etc/hosts && exec etcd "$@"`;
        m.process = tls
          ? spawn('unshare', ['-rm', 'sh', '-c', hosts, 'sh', ...args], {
              stdio: ['ignore', 'ignore', 'pipe'],
            })
          : spawn('etcd', args, { stdio: ['ignore', 'ignore', 'pipe'] });
        m.process.stderr?.on('data', (c: Buffer) => (m.log = (m.log + c.toString()).slice(-3000)));
      };

      // Born with 1 member (the previous default).
      let manifests = renderAll(owner, specOf(1, tls), { pdbApiVersion: 'policy/v1' }).manifests;
      start(0, manifests);
      await waitFor('member 0 healthy', () => healthy(members[0]), 20_000);
      await post(0, '/v3/kv/put', {
        key: Buffer.from('ring').toString('base64'),
        value: Buffer.from('kept').toString('base64'),
      });

      // The spec asks for 3: reconcile until the StatefulSet (this test) runs 3 healthy members.
      const spec = specOf(3, tls);
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
          ...observedFlags(sts.spec.template.spec.containers[0].command),
        };
        if (set.replicas === 3 && ready === 3) break;
        const step = decideEtcd({
          desired: 3,
          peerTls: tls,
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
        for (let i = 0; i < replicas; i++)
          if (members[i].process === undefined) start(i, manifests);
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
      // With spec.tls every member is known by its https peer name.
      const scheme = tls ? 'https' : 'http';
      expect(list.ok && list.members.every((m) => m.peerURLs[0].startsWith(`${scheme}://`))).toBe(
        true,
      );
      // The grown set: every member's flags now name the 3 of them, joining as `existing`.
      const command = etcdSet(manifests).spec.template.spec.containers[0].command;
      expect(observedFlags(command)).toEqual({ initialClusterState: 'existing', peerTls: tls });
      // The data written before growth is served by the newest member.
      const res = await post(2, '/v3/kv/range', {
        key: Buffer.from('ring').toString('base64'),
        serializable: true,
      });
      const kv = (JSON.parse(res.text) as { kvs?: { value: string }[] }).kvs?.[0];
      expect(Buffer.from(kv?.value ?? '', 'base64').toString()).toBe('kept');
    },
    120_000,
  );
});
