import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

/** Where `npm run build` puts the admin UI (the same relative place from src/ and dist/). */
export const DEFAULT_UI_DIR = join(__dirname, '..', '..', '..', '..', 'admin-ui', 'dist');

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

export interface UiAsset {
  readonly body: Buffer;
  readonly contentType: string;
  /** Vite's hashed files under assets/ never change; index.html must be asked again each time. */
  readonly immutable: boolean;
}

/**
 * The file of the built UI for a path below `/ui/`: the file itself when it exists, else
 * index.html for a page of the single-page app (a path without an extension), else undefined.
 * A path that leaves the folder is never served.
 */
export async function readUiAsset(dir: string, relative: string): Promise<UiAsset | undefined> {
  const clean = normalize(relative).replace(/^([/\\])+/, '');
  const file = join(dir, clean);
  if (clean.startsWith('..') || (file !== dir && !file.startsWith(dir + sep))) return undefined;
  if (clean !== '' && (await isFile(file))) {
    return {
      body: await readFile(file),
      contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      immutable: clean.startsWith('assets/'),
    };
  }
  if (extname(clean) !== '') return undefined;
  const index = join(dir, 'index.html');
  if (!(await isFile(index))) return undefined;
  return { body: await readFile(index), contentType: CONTENT_TYPES['.html'], immutable: false };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
