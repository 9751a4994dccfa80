import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedFiles, withReference } from './generated-files';

const root = join(__dirname, '..', '..', '..', '..');

describe('files generated from the LogService schema', () => {
  it.each(Object.entries(generatedFiles()))(
    '%s is up to date (run `npm run crds`)',
    (path, text) => {
      expect(readFileSync(join(root, path), 'utf8')).toBe(text);
    },
  );

  it('docs/operator.md has the current reference (run `npm run crds`)', () => {
    const doc = readFileSync(join(root, 'docs', 'operator.md'), 'utf8');
    expect(withReference(doc)).toBe(doc);
  });
});
