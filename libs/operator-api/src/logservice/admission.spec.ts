import { describe, expect, it } from 'vitest';
import { ALLOW_CHANGES_ANNOTATION, admitLogService } from './admission';
import { formatIssues } from './parse';

const microservices = {
  version: '0.1.0',
  mode: 'Microservices',
  storage: {
    type: 's3',
    size: '10Gi',
    s3: { bucket: 'logs', secret: { name: 'logs-s3' } },
  },
  ring: { store: 'managed', managed: { replicas: 1 } },
};

const refusal = (spec: unknown, old?: unknown, annotations?: Record<string, string>) => {
  const verdict = admitLogService(spec, annotations, old);
  return verdict.allowed ? undefined : formatIssues(verdict.issues);
};

describe('admitLogService', () => {
  it('admits a valid new LogService and refuses one breaking a rule across fields', () => {
    expect(refusal(microservices)).toBeUndefined();
    expect(refusal({ version: '1', mode: 'Microservices' })).toContain(
      'spec.storage.sharedClaimName: is required with storage.type filesystem',
    );
    expect(refusal({ version: 'v1+x' })).toContain('spec.version: "v1+x" is not a label value');
  });

  it.each([
    [{ mode: 'SingleBinary' }, 'spec.mode: changing it from "Microservices" to "SingleBinary"'],
    [
      { storage: { type: 'filesystem', size: '10Gi', sharedClaimName: 'shared' } },
      'spec.storage.type: changing it from "s3" to "filesystem"',
    ],
    [
      { storage: { ...microservices.storage, s3: { bucket: 'other' } } },
      'spec.storage.s3.bucket: changing it from "logs" to "other"',
    ],
    [{ tls: { secretName: 'logs-tls' } }, 'spec.tls: changing it from (unset) to "mutual"'],
  ])('refuses the guarded change %j, naming the field and the annotation', (change, message) => {
    const after = { ...microservices, ...change };
    const refused = refusal(after, microservices);
    expect(refused).toContain(message);
    expect(refused).toContain(ALLOW_CHANGES_ANNOTATION);
    const field = message.split(':')[0];
    expect(refusal(after, microservices, { [ALLOW_CHANGES_ANNOTATION]: field })).toBeUndefined();
  });

  it('guards switching TLS on, off or to mutual, not its Secret, nor in the single binary', () => {
    const tls = { ...microservices, tls: { secretName: 'logs-tls' } };
    expect(refusal(microservices, tls)).toContain(
      'spec.tls: changing it from "mutual" to (unset) is refused',
    );
    expect(refusal({ ...tls, tls: { secretName: 'logs-tls', mutual: false } }, tls)).toContain(
      'spec.tls: changing it from "mutual" to "server-only"',
    );
    expect(refusal({ ...tls, tls: { secretName: 'renewed' } }, tls)).toBeUndefined();
    const single = { version: '0.1.0' };
    expect(refusal({ ...single, tls: { secretName: 'logs-tls' } }, single)).toBeUndefined();
  });

  it('accepts the annotation naming several fields, with or without spec.', () => {
    const after = {
      ...microservices,
      mode: 'SimpleScalable',
      storage: { ...microservices.storage, s3: { bucket: 'b2' } },
    };
    const annotations = { [ALLOW_CHANGES_ANNOTATION]: 'mode, storage.s3.bucket' };
    expect(refusal(after, microservices, annotations)).toBeUndefined();
    expect(refusal(after, microservices, { [ALLOW_CHANGES_ANNOTATION]: 'mode' })).toContain(
      'spec.storage.s3.bucket',
    );
  });

  it('lets the managed etcd grow from 1 to 3 members, never shrink, annotation or not', () => {
    const three = { ...microservices, ring: { store: 'managed', managed: { replicas: 3 } } };
    expect(refusal(three, microservices)).toBeUndefined();
    const annotations = { [ALLOW_CHANGES_ANNOTATION]: 'spec.ring.managed.replicas' };
    expect(refusal(microservices, three, annotations)).toContain(
      'spec.ring.managed.replicas: cannot shrink from 3 to 1: the managed etcd grows (1 to 3 members, one at a time), it does not shrink',
    );
    // The default is 3 members: a LogService written without the field has 3.
    const unset = { ...microservices, ring: { store: 'managed' } };
    expect(refusal(unset, microservices)).toBeUndefined();
    expect(refusal(microservices, unset)).toContain('cannot shrink from 3 to 1');
    expect(refusal(three, unset)).toBeUndefined();
  });

  it('refuses what the API server would refuse later, annotation or not', () => {
    const after = { ...microservices, storage: { ...microservices.storage, size: '20Gi' } };
    const annotations = { [ALLOW_CHANGES_ANNOTATION]: 'spec.storage.size' };
    expect(refusal(after, microservices, annotations)).toContain(
      'spec.storage.size: is immutable ("10Gi" to "20Gi"): the volume claims of a StatefulSet cannot change',
    );
    const etcd = { ...microservices, ring: { store: 'managed', managed: { size: '2Gi' } } };
    expect(refusal(etcd, microservices)).toContain('spec.ring.managed.size: is immutable');
  });

  it('lets every other change through, and a metadata-only update of an invalid spec', () => {
    const scaled = {
      ...microservices,
      components: { ingester: { replicas: 5 } },
      version: '0.2.0',
    };
    expect(refusal(scaled, microservices)).toBeUndefined();
    // Not managed etcd before and after: the member count is not guarded.
    const external = { ...microservices, ring: { store: 'etcd', etcdEndpoints: ['etcd:2379'] } };
    expect(
      refusal({ ...external, ring: { ...external.ring, managed: { replicas: 3 } } }, external),
    ).toBeUndefined();
    const invalid = { version: '1', mode: 'Microservices' };
    expect(refusal(invalid, invalid)).toBeUndefined();
  });
});
