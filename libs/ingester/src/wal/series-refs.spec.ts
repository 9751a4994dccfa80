import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_LABELS } from '@logsvc/api';
import { SILENT_LOGGER } from '../logger';
import { newCounters, type IngesterCounters } from '../metrics';
import { FaultyWalFs } from './faulty-fs';
import { SeriesRefs, type WalSeriesSlot } from './series-refs';
import { Wal } from './wal';

const LABELS = '{app="series-refs", env="prod"}';

function slot(): WalSeriesSlot {
  return { walRef: 0, walEpoch: -1 };
}

const push = (series: WalSeriesSlot, line: string, labelsText = LABELS) => [
  {
    labelsText: Buffer.from(labelsText),
    series,
    entries: [{ timestampNs: 1n, line: Buffer.from(line), structuredMetadata: EMPTY_LABELS }],
  },
];

describe('WAL records that name streams by series number', () => {
  let dir: string;
  let fs: FaultyWalFs;
  let counters: IngesterCounters;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wal-refs-'));
    fs = new FaultyWalFs();
    counters = newCounters();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Opens the WAL and replays it; lines come back as `labels line`. */
  async function openWal(segmentSize?: number): Promise<{ wal: Wal; lines: string[] }> {
    const wal = await Wal.open({ dir, logger: SILENT_LOGGER, counters, fs, segmentSize });
    const lines: string[] = [];
    await wal.replay({
      restoreStream: () => {},
      replayPush: (_seq, _tenant, streams) => {
        for (const s of streams) for (const e of s.entries) lines.push(`${s.labelsText} ${e.line}`);
      },
    });
    return { wal, lines };
  }

  /** Closes `wal`, opens the directory again and returns what replay brought back. */
  async function reopenedLines(wal: Wal): Promise<string[]> {
    await wal.close();
    const { wal: again, lines } = await openWal();
    await again.close();
    return lines;
  }

  async function segmentBytes(): Promise<Buffer> {
    const names = (await readdir(dir)).filter((n) => /^\d+$/.test(n)).sort();
    return Buffer.concat(await Promise.all(names.map((n) => readFile(join(dir, n)))));
  }

  it('writes the label text once and replays every record with it, across segments', async () => {
    const { wal } = await openWal(64);
    const s = slot();
    for (let i = 0; i < 5; i++) await wal.append('t', push(s, `line ${i}`));
    await wal.close();
    const bytes = await segmentBytes();
    expect(bytes.toString('latin1').split(LABELS).length - 1).toBe(1);
    expect((await readdir(dir)).filter((n) => /^\d+$/.test(n)).length).toBeGreaterThan(2);

    const { wal: again, lines } = await openWal();
    expect(lines).toEqual([0, 1, 2, 3, 4].map((i) => `${LABELS} line ${i}`));
    // A later run numbers its streams anew without clashing with the numbers on disk.
    const other = slot();
    await again.append('t', push(other, 'next run', '{app="other"}'));
    await again.append('t', push(s, 'line 5'));
    await again.close();
    const { wal: third, lines: all } = await openWal();
    expect(all.slice(5)).toEqual(['{app="other"} next run', `${LABELS} line 5`]);
    expect(counters.wal_corruptions_total).toBe(0);
    await third.close();
  });

  it('skips only the streams whose definition was lost, and replays the rest', async () => {
    const { wal } = await openWal(64);
    const s = slot();
    await wal.append('t', push(s, 'defines'));
    await wal.append('t', [...push(s, 'names it'), ...push(slot(), 'other', '{app="other"}')]);
    await wal.close();
    // The first segment, with the definition, is gone (as a damaged one would be cut).
    const first = (await readdir(dir)).filter((n) => /^\d+$/.test(n)).sort()[0];
    await rm(join(dir, first));
    const { wal: again, lines } = await openWal();
    expect(lines).toEqual(['{app="other"} other']);
    expect(counters.wal_corruptions_total).toBe(1);
    await again.close();
  });

  it('defines streams again after a checkpoint, whose segments replay on their own', async () => {
    const { wal } = await openWal();
    const s = slot();
    await wal.append('t', push(s, 'before'));
    // The checkpoint holds no stream here: only what is written after it is replayed.
    await wal.checkpoint(async function* () {});
    await wal.append('t', push(s, 'after'));
    expect(await reopenedLines(wal)).toEqual([`${LABELS} after`]);
  });

  it('defines a stream again after the record that defined it failed to write', async () => {
    const { wal } = await openWal();
    const s = slot();
    fs.full = true;
    await expect(wal.append('t', push(s, 'lost'))).rejects.toThrow('ENOSPC');
    fs.full = false;
    await wal.append('t', push(s, 'kept'));
    expect(await reopenedLines(wal)).toEqual([`${LABELS} kept`]);
  });

  it('hands undo the labels of a failed record that names a stream an earlier record defined', async () => {
    const { wal } = await openWal();
    const s = slot();
    await wal.append('t', push(s, 'defines'));
    fs.full = true;
    const undone: string[] = [];
    await expect(
      wal.append('t', push(s, 'fails'), (streams) => {
        for (const st of streams)
          for (const e of st.entries) undone.push(`${st.labelsText} ${e.line}`);
      }),
    ).rejects.toThrow('ENOSPC');
    fs.full = false;
    expect(undone).toEqual([`${LABELS} fails`]);
    await wal.close();
  });

  it('fails the records queued behind a failed write, which may rely on its definitions', async () => {
    const { wal } = await openWal();
    const s = slot();
    fs.stall();
    const defining = wal.append('t', push(s, 'defines'));
    await fs.untilStalled();
    const behind = wal.append('t', push(s, 'names it'));
    fs.release('enospc');
    await expect(defining).rejects.toThrow('ENOSPC');
    await expect(behind).rejects.toThrow('an earlier write-ahead log write failed');
    await wal.append('t', push(s, 'after'));
    expect(await reopenedLines(wal)).toEqual([`${LABELS} after`]);
  });
});

describe('SeriesRefs', () => {
  const labels = Buffer.from('{app="a"}');

  it("keeps the current epoch's definitions for later records to be undone with", () => {
    const refs = new SeriesRefs();
    const s = slot();
    const epoch = refs.currentEpoch;
    expect(refs.wireRef(s, labels) % 2).toBe(1);
    refs.recordPending(epoch);
    refs.recordSettled(epoch);
    // A later record names the stream by number only; if it fails, undo still finds the text.
    expect(refs.wireRef(s, labels) % 2).toBe(0);
    expect(refs.labelsOf(epoch, s.walRef)).toBe('{app="a"}');
  });

  it('drops the tables of failed epochs once their records settle, however many writes fail', () => {
    const refs = new SeriesRefs();
    for (let i = 0; i < 1000; i++) {
      const epoch = refs.currentEpoch;
      for (let k = 0; k < 10; k++) refs.wireRef(slot(), labels);
      refs.recordPending(epoch);
      refs.newEpoch(); // the write failed
      refs.recordSettled(epoch);
    }
    expect(refs.heldEpochs).toBeLessThanOrEqual(1);
  });
});
