/** Test helper: an object-store emulator as a child `node` process with its own data directory. */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

export interface ChildStoreOptions {
  /** Named in the error when the process exits before it listens. */
  readonly name: string;
  /** `node` arguments (script first), given the fresh data directory. */
  readonly args: (dir: string) => string[];
  /** The port once the stdout seen so far announces it, else undefined. */
  readonly portFrom: (stdout: string) => number | undefined;
  /** Asks the process to end; SIGKILL follows after 5 s. */
  readonly quit: (child: Child) => void;
}

export interface ChildStore {
  readonly port: number;
  /** Ends the process and removes its data directory. */
  stop(): Promise<void>;
}

/** Spawns the emulator in a temporary directory; resolves once its stdout names the port. */
export async function startChildStore(options: ChildStoreOptions): Promise<ChildStore> {
  const dir = await mkdtemp(path.join(tmpdir(), `logsvc-${options.name}-`));
  const child = spawn(process.execPath, options.args(dir), { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const found = options.portFrom(out);
      if (found !== undefined) resolve(found);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) =>
      reject(new Error(`${options.name} exited with ${code}: ${err}${out}`)),
    );
  });
  return {
    port,
    stop: async () => {
      options.quit(child);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
