import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EMPTY_LABELS, labelsToString, parseLabels, type Matcher } from '@logsvc/api';
import { LocalIngesterClient } from './client';
import { DEFAULT_INGESTER_CONFIG } from './config';
import { Ingester } from './ingester';

const T0 = 1_704_067_200_000_000_000n;

function push(client: LocalIngesterClient, tenant: string, labels: string, ...lines: string[]) {
  return client.push(tenant, {
    streams: [
      {
        labels: parseLabels(labels),
        entries: lines.map((line, i) => ({
          timestampNs: T0 + BigInt(i),
          line: Buffer.from(line),
          structuredMetadata: EMPTY_LABELS,
        })),
      },
    ],
  });
}

describe('LocalIngesterClient.tail', () => {
  const dirs: string[] = [];
  const ingesters: Ingester[] = [];
  afterEach(async () => {
    for (const i of ingesters.splice(0)) await i.shutdown({ flush: false }).catch(() => {});
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  /** An ingester with its own WAL directory, not started yet; stopped after each test. */
  async function newIngester(): Promise<Ingester> {
    const dir = await mkdtemp(join(tmpdir(), 'tail-hub-'));
    dirs.push(dir);
    const ingester = new Ingester({
      config: {
        ...DEFAULT_INGESTER_CONFIG,
        wal: { enabled: true, dir, checkpoint_duration: 60_000 },
      },
      sink: { putChunks: async () => {} },
      backgroundLoops: false,
    });
    ingesters.push(ingester);
    return ingester;
  }

  async function startIngester(): Promise<Ingester> {
    const ingester = await newIngester();
    await ingester.start();
    return ingester;
  }

  const app = (value: string): Matcher => ({ type: '=', name: 'app', value });

  it("gets the durable entries of the tenant's selected streams, and nothing once closed", async () => {
    const client = new LocalIngesterClient(await startIngester());
    const seen: string[] = [];
    const sub = await client.tail('t', [app('a')], (labels, entries) => {
      for (const e of entries) seen.push(`${labelsToString(labels)} ${e.line.toString()}`);
    });
    await push(client, 't', '{app="a", pod="1"}', 'one', 'two');
    await push(client, 't', '{app="b"}', 'other stream');
    await push(client, 'u', '{app="a"}', 'other tenant');
    expect(seen).toEqual(['{app="a", pod="1"} one', '{app="a", pod="1"} two']);
    expect(client.tails.count('t')).toBe(1);
    sub.close();
    sub.close();
    expect(client.tails.count()).toBe(0);
    await push(client, 't', '{app="a", pod="1"}', 'after close');
    expect(seen).toHaveLength(2);
  });

  it('serves its ingester from the end of its start until it stopped, nothing outside', async () => {
    const ingester = await newIngester();
    const client = new LocalIngesterClient(ingester);
    const seen: string[] = [];
    await client.tail('t', [app('a')], (_l, entries) => {
      for (const e of entries) seen.push(e.line.toString());
    });
    await expect(push(client, 't', '{app="a"}', 'too early')).rejects.toMatchObject({
      kind: 'unavailable',
    });
    expect(client.ingester).toBeUndefined();
    await ingester.start();
    expect(client.ingester).toBe(ingester);
    await push(client, 't', '{app="a"}', 'served');
    expect(await client.labelNames('t', { fromNs: 0n, throughNs: T0 + 10n })).toEqual(['app']);
    await ingester.shutdown({ flush: false });
    expect(client.ingester).toBeUndefined();
    expect(await client.labelNames('t', { fromNs: 0n, throughNs: T0 + 10n })).toEqual([]);
    await expect(push(client, 't', '{app="a"}', 'too late')).rejects.toMatchObject({
      kind: 'unavailable',
    });
    expect(seen).toEqual(['served']);
  });
});
