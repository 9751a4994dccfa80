import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Segment files are named by their number, zero-padded to 8 digits: `00000012`. */
const SEGMENT_NAME = /^(\d{8,})$/;
/** `checkpoint.00000012` holds everything in segments below 12. */
const CHECKPOINT_NAME = /^checkpoint\.(\d{8,})$/;
const TEMP_SUFFIX = '.tmp';

function pad(n: number): string {
  return String(n).padStart(8, '0');
}

export function segmentPath(dir: string, index: number): string {
  return join(dir, pad(index));
}

export function checkpointPath(dir: string, firstSegment: number): string {
  return join(dir, `checkpoint.${pad(firstSegment)}`);
}

export function checkpointTempPath(dir: string, firstSegment: number): string {
  return checkpointPath(dir, firstSegment) + TEMP_SUFFIX;
}

export interface WalDirListing {
  /** Segment numbers, ascending. */
  readonly segments: number[];
  /** Checkpoint numbers (first segment not covered), ascending. */
  readonly checkpoints: number[];
  /** Leftover temporary files of interrupted checkpoints. */
  readonly temporaries: string[];
}

export async function listWalDir(dir: string): Promise<WalDirListing> {
  const segments: number[] = [];
  const checkpoints: number[] = [];
  const temporaries: string[] = [];
  for (const name of await readdir(dir)) {
    let m = SEGMENT_NAME.exec(name);
    if (m) {
      segments.push(Number(m[1]));
      continue;
    }
    m = CHECKPOINT_NAME.exec(name);
    if (m) checkpoints.push(Number(m[1]));
    else if (name.startsWith('checkpoint.') && name.endsWith(TEMP_SUFFIX)) {
      temporaries.push(join(dir, name));
    }
  }
  segments.sort((a, b) => a - b);
  checkpoints.sort((a, b) => a - b);
  return { segments, checkpoints, temporaries };
}

/** Makes a created, renamed or deleted directory entry durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
