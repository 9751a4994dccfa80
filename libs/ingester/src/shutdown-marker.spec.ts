import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHUTDOWN_MARKER_FILE, ShutdownMarker } from './shutdown-marker';

describe('ShutdownMarker', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shutdown-marker-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is created under the path prefix with Loki’s file name, survives, and is removed', async () => {
    const marker = ShutdownMarker.under(join(dir, 'prefix'));
    expect(await marker.exists()).toBe(false);
    await marker.create();
    expect(await readdir(join(dir, 'prefix'))).toEqual([SHUTDOWN_MARKER_FILE]);
    expect(await ShutdownMarker.under(join(dir, 'prefix')).exists()).toBe(true);
    await marker.remove();
    await marker.remove();
    expect(await marker.exists()).toBe(false);
  });
});
