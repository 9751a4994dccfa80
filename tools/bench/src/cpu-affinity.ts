import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Where the benchmarked server and the bench's own load run (Linux `taskset` CPU lists). */
export interface CpuPlacement {
  /** CPUs the server may run on, e.g. "1"; null when it is not pinned. */
  readonly server: string | null;
  /** CPUs the bench process moves to for the timed run; null when it stays where it is. */
  readonly client: string | null;
}

const NOT_PINNED: CpuPlacement = { server: null, client: null };

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * `spec` is "all" (no pinning), "auto" (server on the last CPU, the load on the others, when
 * there are at least two and `taskset` exists; otherwise no pinning) or a CPU list for the
 * server (the load then runs on every CPU).
 */
export function placeCpus(spec: string): CpuPlacement {
  if (spec === 'all') return NOT_PINNED;
  if (!hasTaskset()) {
    if (spec === 'auto') return NOT_PINNED;
    throw new Error('--server-cpus needs `taskset` (util-linux)');
  }
  if (spec !== 'auto') return { server: spec, client: null };
  const cpus = allowedCpus();
  if (cpus.length < 2) return NOT_PINNED;
  return { server: String(cpus[cpus.length - 1]), client: cpus.slice(0, -1).join(',') };
}

/** The CPUs this process may run on (`Cpus_allowed_list`), ascending; empty when unknown. */
function allowedCpus(): number[] {
  let list: string;
  try {
    const m = /^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (!m) return [];
    list = m[1];
  } catch {
    return [];
  }
  const cpus: number[] = [];
  for (const part of list.split(',')) {
    const [from, to = from] = part.split('-').map(Number);
    for (let c = from; c <= to; c++) cpus.push(c);
  }
  return cpus;
}

/** The command line that runs `command args` on `cpus` (unchanged when `cpus` is null). */
export function onCpus(cpus: string | null, command: string, args: string[]): [string, string[]] {
  return cpus === null ? [command, args] : ['taskset', ['-c', cpus, command, ...args]];
}

/** Moves every thread of this process to `cpus`. */
export function pinThisProcess(cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
}
