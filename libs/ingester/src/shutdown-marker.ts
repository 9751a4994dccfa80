import { rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Loki's file name for the prepare-shutdown marker. */
export const SHUTDOWN_MARKER_FILE = 'shutdown-requested.txt';

/**
 * The prepare-shutdown marker on disk (`<common.path_prefix>/shutdown-requested.txt`, as Loki
 * keeps it under its path prefix). It survives a restart, so an ingester restarted after
 * POST /ingester/prepare_shutdown still flushes on its next SIGTERM.
 */
export class ShutdownMarker {
  constructor(readonly path: string) {}

  static under(pathPrefix: string): ShutdownMarker {
    return new ShutdownMarker(join(pathPrefix, SHUTDOWN_MARKER_FILE));
  }

  async exists(): Promise<boolean> {
    try {
      await stat(this.path);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async create(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await writeFile(this.path, `${new Date().toISOString()}\n`);
  }

  async remove(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
