import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatedFiles, withReference } from './generated-files';

// `npm run crds`: writes the CRD YAML, the generated TypeScript types and docs/operator.md's
// reference from the LogService schema.
const root = join(__dirname, '..', '..', '..', '..');
for (const [path, content] of Object.entries(generatedFiles())) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
  process.stdout.write(`wrote ${path}\n`);
}
const docs = join(root, 'docs', 'operator.md');
writeFileSync(docs, withReference(readFileSync(docs, 'utf8')));
process.stdout.write('wrote docs/operator.md (reference)\n');
