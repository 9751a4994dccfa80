import { describe, expect, it } from 'vitest';
import { WORKER_OLD_SPACE_MB, workerOldSpaceMb } from './worker-heap';

const GIB = 2 ** 30;

describe('workerOldSpaceMb', () => {
  it('gives each worker 128 MB of room on a machine with memory to spare', () => {
    expect(workerOldSpaceMb(24 * GIB)).toBe(WORKER_OLD_SPACE_MB);
    expect(workerOldSpaceMb(2 * GIB)).toBe(128);
  });

  it('gives less in a small container, so that workers holding garbage cannot fill it', () => {
    expect(workerOldSpaceMb(1 * GIB)).toBe(64);
    expect(workerOldSpaceMb(512 * 2 ** 20)).toBe(32);
    expect(workerOldSpaceMb(128 * 2 ** 20)).toBe(16);
  });
});
