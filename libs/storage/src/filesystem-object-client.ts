import { randomBytes } from 'node:crypto';
import { promises as fs, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { InvalidObjectKeyError, ObjectNotFoundError, StorageError, errorMessage } from './errors';
import {
  assertValidRange,
  compareKeys,
  type ListOptions,
  type ListResult,
  type ObjectClient,
  type ObjectInfo,
} from './object-client';
import { TEMP_FILE_SUFFIX, assertSafeObjectKey, assertSafePrefix } from './object-key';

const PUT_ATTEMPTS = 3;

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Objects as files under one directory. Writes go to a temporary file in the target directory,
 * are fsync'd, then renamed over the key, so readers see the old object or the new one, never
 * a partial one, and a crash leaves no half-written object.
 */
export class FilesystemObjectClient implements ObjectClient {
  private readonly root: string;

  constructor(directory: string) {
    if (!directory) throw new StorageError('filesystem object store: directory is empty');
    this.root = path.resolve(directory);
  }

  async put(key: string, body: Buffer): Promise<void> {
    const target = this.pathFor(key);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.writeAtomically(target, body);
        return;
      } catch (err) {
        // A concurrent delete may have removed the (then empty) directory between our mkdir
        // and rename; that is the only failure worth retrying.
        if (code(err) === 'ENOENT' && attempt < PUT_ATTEMPTS) continue;
        if (code(err) === 'ENOTDIR' || code(err) === 'EISDIR' || code(err) === 'EEXIST') {
          throw new StorageError(`put ${key}: conflicts with an existing object or prefix`, {
            cause: err,
          });
        }
        throw new StorageError(`put ${key}: ${errorMessage(err)}`, { cause: err });
      }
    }
  }

  async get(key: string): Promise<Buffer> {
    const file = this.pathFor(key);
    try {
      return await fs.readFile(file);
    } catch (err) {
      throw this.readError(key, err);
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    assertValidRange(key, offset, length);
    const file = this.pathFor(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (err) {
      throw this.readError(key, err);
    }
    try {
      const buf = Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(buf, filled, length - filled, offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buf.subarray(0, filled);
    } catch (err) {
      throw this.readError(key, err);
    } finally {
      await handle.close();
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await fs.stat(this.pathFor(key))).isFile();
    } catch (err) {
      if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return false;
      throw new StorageError(`exists ${key}: ${errorMessage(err)}`, { cause: err });
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathFor(key);
    try {
      await fs.unlink(file);
    } catch (err) {
      if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return;
      throw new StorageError(`delete ${key}: ${errorMessage(err)}`, { cause: err });
    }
    await this.removeEmptyParents(path.dirname(file));
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    assertSafePrefix(prefix);
    const { delimiter } = options;
    if (delimiter !== undefined && delimiter !== '/') {
      throw new StorageError(`list ${prefix}: only the "/" delimiter is supported`);
    }
    const slash = prefix.lastIndexOf('/');
    const dirKey = slash < 0 ? '' : prefix.slice(0, slash);
    const namePrefix = prefix.slice(slash + 1);
    const objects: ObjectInfo[] = [];
    const commonPrefixes: string[] = [];
    const entries = await this.readDir(dirKey);
    for (const entry of entries) {
      if (!entry.name.startsWith(namePrefix) || entry.name.endsWith(TEMP_FILE_SUFFIX)) continue;
      const key = dirKey === '' ? entry.name : `${dirKey}/${entry.name}`;
      if (entry.isDirectory()) {
        if (delimiter === undefined) await this.collect(key, objects);
        else if (await this.holdsAnyObject(key)) commonPrefixes.push(`${key}/`);
      } else if (entry.isFile()) {
        const info = await this.info(key);
        if (info) objects.push(info);
      }
    }
    objects.sort((a, b) => compareKeys(a.key, b.key));
    commonPrefixes.sort(compareKeys);
    return { objects, commonPrefixes };
  }

  /** The absolute file path of a key, after checking that it cannot leave the root. */
  private pathFor(key: string): string {
    assertSafeObjectKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + path.sep)) {
      throw new InvalidObjectKeyError(key, 'resolves outside the store directory');
    }
    return file;
  }

  private async writeAtomically(target: string, body: Buffer): Promise<void> {
    const dir = path.dirname(target);
    const firstCreated = await fs.mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `.${randomBytes(8).toString('hex')}${TEMP_FILE_SUFFIX}`);
    const handle = await fs.open(tmp, 'wx', 0o644);
    try {
      try {
        await handle.writeFile(body);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(tmp, target);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
    // Make the rename (and any directories we created) durable.
    await syncDir(dir);
    if (firstCreated !== undefined) {
      const stop = path.dirname(firstCreated);
      for (let d = path.dirname(dir); ; d = path.dirname(d)) {
        await syncDir(d);
        if (d === stop || d === path.dirname(d)) break;
      }
    }
  }

  private readError(key: string, err: unknown): Error {
    const c = code(err);
    if (c === 'ENOENT' || c === 'ENOTDIR' || c === 'EISDIR') return new ObjectNotFoundError(key);
    return new StorageError(`get ${key}: ${errorMessage(err)}`, { cause: err });
  }

  private async readDir(dirKey: string): Promise<Dirent[]> {
    const dir = dirKey === '' ? this.root : path.join(this.root, ...dirKey.split('/'));
    try {
      return await fs.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return [];
      throw new StorageError(`list ${dirKey}: ${errorMessage(err)}`, { cause: err });
    }
  }

  private async collect(dirKey: string, out: ObjectInfo[]): Promise<void> {
    for (const entry of await this.readDir(dirKey)) {
      if (entry.name.endsWith(TEMP_FILE_SUFFIX)) continue;
      const key = `${dirKey}/${entry.name}`;
      if (entry.isDirectory()) await this.collect(key, out);
      else if (entry.isFile()) {
        const info = await this.info(key);
        if (info) out.push(info);
      }
    }
  }

  private async holdsAnyObject(dirKey: string): Promise<boolean> {
    for (const entry of await this.readDir(dirKey)) {
      if (entry.name.endsWith(TEMP_FILE_SUFFIX)) continue;
      if (entry.isFile()) return true;
      if (entry.isDirectory() && (await this.holdsAnyObject(`${dirKey}/${entry.name}`)))
        return true;
    }
    return false;
  }

  /** Size and mtime, or undefined when the file vanished since the directory was read. */
  private async info(key: string): Promise<ObjectInfo | undefined> {
    try {
      const st = await fs.stat(path.join(this.root, ...key.split('/')));
      return { key, size: st.size, modifiedAt: st.mtime };
    } catch (err) {
      if (code(err) === 'ENOENT') return undefined;
      throw new StorageError(`list ${key}: ${errorMessage(err)}`, { cause: err });
    }
  }

  private async removeEmptyParents(dir: string): Promise<void> {
    while (dir.startsWith(this.root + path.sep)) {
      try {
        await fs.rmdir(dir);
      } catch {
        return; // not empty, already gone, or busy: stop climbing
      }
      dir = path.dirname(dir);
    }
  }
}

async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms cannot fsync a directory; the file itself is already synced.
  } finally {
    await handle?.close();
  }
}
