import { LogsvcError } from '@logsvc/errors';
import type { InstanceDesc, ReplicationSet } from '@logsvc/ring';
import { describe, expect, it } from 'vitest';
import { readFromReplicas } from './read-fanout';

function instance(id: string, zone: string): InstanceDesc {
  return {
    id,
    addr: `${id}:9095`,
    zone,
    state: 'ACTIVE',
    tokens: [],
    heartbeatMs: 0,
    registeredMs: 0,
  };
}

/** Two instances in each of zones a, b and c. */
const SIX = ['a', 'b', 'c'].flatMap((z) => [instance(`${z}1`, z), instance(`${z}2`, z)]);

/** Reads that fail for the named instances and answer with the id otherwise. */
function reading(failing: readonly string[]) {
  return async (i: InstanceDesc): Promise<string> => {
    if (failing.includes(i.id)) throw new LogsvcError('unavailable', `${i.id} is down`);
    return i.id;
  };
}

const zoneAware = (maxUnavailableZones: number): ReplicationSet => ({
  instances: SIX,
  maxErrors: 0,
  maxUnavailableZones,
});

describe('readFromReplicas over zones (zone-aware reads)', () => {
  it('answers from the complete zones when one zone fails, however many of its members fail', async () => {
    const failed: string[] = [];
    const onFailure = (i: InstanceDesc) => failed.push(i.id);
    expect(await readFromReplicas(zoneAware(1), reading(['b1']), onFailure)).toEqual([
      'a1',
      'a2',
      'c1',
      'c2',
    ]);
    expect(await readFromReplicas(zoneAware(1), reading(['a1', 'a2']), onFailure)).toEqual([
      'b1',
      'b2',
      'c1',
      'c2',
    ]);
    expect(failed).toEqual(['b1', 'a1', 'a2']);
  });

  it('fails with the first failure once more zones fail than may', async () => {
    await expect(
      readFromReplicas(zoneAware(1), reading(['a1', 'c2']), () => {}),
    ).rejects.toMatchObject({ kind: 'unavailable', message: 'a1 is down' });
  });

  it('takes any failure as fatal when no zone may fail', async () => {
    await expect(readFromReplicas(zoneAware(0), reading(['c2']), () => {})).rejects.toMatchObject({
      message: 'c2 is down',
    });
    expect(await readFromReplicas(zoneAware(0), reading([]), () => {})).toEqual(
      SIX.map((i) => i.id),
    );
  });

  it('does not wait for the last zone once the others have answered', async () => {
    const never = (i: InstanceDesc): Promise<string> =>
      i.zone === 'c' ? new Promise(() => {}) : Promise.resolve(i.id);
    expect(await readFromReplicas(zoneAware(1), never, () => {})).toEqual(['a1', 'a2', 'b1', 'b2']);
  });
});

describe('readFromReplicas without zones', () => {
  it('tolerates maxErrors failures among all members', async () => {
    const set: ReplicationSet = { instances: SIX.slice(0, 3), maxErrors: 1 };
    expect(await readFromReplicas(set, reading(['a2']), () => {})).toEqual(['a1', 'b1']);
    await expect(readFromReplicas(set, reading(['a1', 'b1']), () => {})).rejects.toMatchObject({
      message: 'a1 is down',
    });
  });
});
