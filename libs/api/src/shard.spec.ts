import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inShard, labelsShardHash, parseShard, shardText } from './shard';
import { sortLabels } from './labels';

describe('query shards', () => {
  it('reads and writes Loki shard texts, and refuses the rest', () => {
    expect(parseShard('3_of_16')).toEqual({ index: 3, of: 16 });
    expect(shardText({ index: 0, of: 2 })).toBe('0_of_2');
    for (const bad of ['16_of_16', '1_of_0', 'x_of_2', '1of2', '', '-1_of_2']) {
      expect(parseShard(bad), bad).toBeUndefined();
    }
  });

  it('puts every stream in exactly one shard of a split', () => {
    const labelSets = fc.array(
      fc.record({ name: fc.stringMatching(/^[a-z_]{1,6}$/), value: fc.string() }),
      { maxLength: 5 },
    );
    fc.assert(
      fc.property(labelSets, fc.integer({ min: 1, max: 32 }), (pairs, of) => {
        const labels = sortLabels(pairs);
        const owners = Array.from({ length: of }, (_, index) => index).filter((index) =>
          inShard(labels, { index, of }),
        );
        expect(owners).toEqual([labelsShardHash(labels) % of]);
      }),
    );
  });

  it('spreads streams over the shards', () => {
    const counts = new Array<number>(4).fill(0);
    for (let i = 0; i < 4000; i++) {
      counts[labelsShardHash(sortLabels([{ name: 'pod', value: `pod-${i}` }])) % 4]++;
    }
    for (const c of counts) expect(c).toBeGreaterThan(800);
  });
});
