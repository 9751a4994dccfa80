import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_LABELS } from '@logsvc/api';
import { SILENT_LOGGER } from '../logger';
import { newCounters } from '../metrics';
import { FaultyWalFs } from './faulty-fs';
import { Wal } from './wal';

const push = (line: string) => [
  {
    labelsText: Buffer.from('{app="a"}'),
    entries: [{ timestampNs: 1n, line: Buffer.from(line), structuredMetadata: EMPTY_LABELS }],
  },
];

describe('Wal on a full disk', () => {
  let dir: string;
  let fs: FaultyWalFs;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wal-full-'));
    fs = new FaultyWalFs();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function openWal(): Promise<{ wal: Wal; lines: string[] }> {
    const wal = await Wal.open({ dir, logger: SILENT_LOGGER, counters: newCounters(), fs });
    const lines: string[] = [];
    await wal.replay({
      restoreStream: (s) => lines.push(`checkpoint stream ${s.labelsText}`),
      replayPush: (_seq, _t, streams) =>
        lines.push(...streams.flatMap((s) => s.entries.map((e) => e.line.toString()))),
    });
    return { wal, lines };
  }

  it('opens no new segment per failed write and resumes in place when space returns', async () => {
    const { wal } = await openWal();
    await wal.append('t', push('before'));
    const before = await readdir(dir);
    fs.full = true;
    for (let i = 0; i < 50; i++) {
      await expect(wal.append('t', push(`lost ${i}`))).rejects.toThrow(
        'write-ahead log write failed: ENOSPC: no space left on device, write',
      );
    }
    expect(await readdir(dir)).toEqual(before);
    fs.full = false;
    await wal.append('t', push('after'));
    expect(await readdir(dir)).toEqual(before);
    await wal.close();
    const { wal: again, lines } = await openWal();
    expect(lines).toEqual(['before', 'after']);
    await again.close();
  });

  it('leaves no temporary file behind when a checkpoint fails, and checkpoints once space returns', async () => {
    const { wal } = await openWal();
    await wal.append('t', push('kept'));
    fs.full = true;
    const frames = async function* () {
      yield Buffer.alloc(0);
    };
    await expect(wal.checkpoint(frames)).rejects.toThrow('ENOSPC');
    await expect(wal.checkpoint(frames)).rejects.toThrow('ENOSPC');
    const names = await readdir(dir);
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(names.filter((n) => n.startsWith('checkpoint'))).toEqual([]);
    fs.full = false;
    await wal.close();
    // Nothing was lost: the segments the failed checkpoints would have replaced are still there.
    const { wal: again, lines } = await openWal();
    expect(lines).toEqual(['kept']);
    await again.close();
  });
  it('discards a checkpoint taken while a record failed, keeping the log it would replace', async () => {
    const { wal } = await openWal();
    await wal.append('t', push('kept'));
    let undone = 0;
    const frames = async function* () {
      // A push lands in memory (and so in this checkpoint) while the checkpoint is written,
      // and its record fails: the push is undone in memory, but the checkpoint still has it.
      fs.full = true;
      await wal.append('t', push('failed'), () => undone++).catch(() => {});
      fs.full = false;
      yield Buffer.alloc(0);
    };
    await expect(wal.checkpoint(frames)).rejects.toThrow(
      'a WAL write failed while the checkpoint was taken; discarded',
    );
    expect(undone).toBe(1);
    const names = await readdir(dir);
    expect(names.filter((n) => n.startsWith('checkpoint'))).toEqual([]);
    await wal.close();
    const { wal: again, lines } = await openWal();
    expect(lines).toEqual(['kept']);
    await again.close();
  });
});
