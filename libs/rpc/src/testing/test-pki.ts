/** Test helper: certificates made with the `openssl` command, for the TLS tests. Test-only. */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A self-signed CA valid for a day: `<name>.key` and `<name>.crt` in `dir`. */
export function makeCa(dir: string, name: string): void {
  openssl(
    dir,
    'req',
    '-x509',
    ...EC,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '1',
    '-subj',
    `/CN=${name}`,
  );
}

/**
 * `<name>.key` and `<name>.crt` in `dir`, signed by the CA `<ca>.*` there for a day, with the
 * extensions written in `ext.cnf` there (subjectAltName, extendedKeyUsage, ...).
 */
export function signCert(dir: string, name: string, ca: string): void {
  openssl(
    dir,
    'req',
    '-new',
    ...EC,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    `/CN=${name}`,
  );
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    'ext.cnf',
    '-out',
    `${name}.crt`,
  );
}

/** Writes the `ext.cnf` that signCert applies: one extension a line. */
export function writeExtensions(dir: string, lines: readonly string[]): void {
  writeFileSync(join(dir, 'ext.cnf'), lines.map((l) => `${l}\n`).join(''));
}
