// The `logsvc/boundaries` ESLint rule: the project layers of tools/scripts/layers.mjs.
//
// - A relative import never leaves its project (libs/x, apps/x, tools/x, e2e): another project
//   is imported through its package name, or its testing entry.
// - A library imports only libraries of lower layers, and (outside its tests) only those its
//   package.json declares; apps, tools and e2e import what OTHER_PROJECTS allows.
// - Testing entries (`@logsvc/x/testing`, and those of TESTING_ENTRIES) are for tests only.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYER_OF, LIBRARY_LAYERS, OTHER_PROJECTS, TESTING_ENTRIES } from './layers.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Packages that are not libraries, and their folders. */
const NON_LIBRARY_PACKAGES = {
  server: 'apps/logsvc',
  operator: 'apps/operator',
  'admin-ui': 'apps/admin-ui',
  bench: 'tools/bench',
  e2e: 'e2e',
};

/** `libs/x`, `apps/x`, `tools/x` or `e2e` for a path inside the repository; else undefined. */
function projectOf(absolute) {
  const parts = relative(ROOT, absolute).split(sep);
  if (parts[0] === 'e2e' && parts.length > 1) return 'e2e';
  if (['libs', 'apps', 'tools'].includes(parts[0]) && parts.length > 2)
    return `${parts[0]}/${parts[1]}`;
  return undefined;
}

/** Specs and the support code they use: spec files, test/ and testing/ folders, e2e, tools. */
function isTestCode(absolute) {
  const path = relative(ROOT, absolute).split(sep).join('/');
  return (
    /\.spec\.tsx?$/.test(path) ||
    /(^|\/)(test|testing)\//.test(path) ||
    path.startsWith('e2e/') ||
    path.startsWith('tools/')
  );
}

const declared = new Map();
/** The `@logsvc/*` packages a library's package.json declares. */
function declaredBy(project) {
  let deps = declared.get(project);
  if (deps === undefined) {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, project, 'package.json'), 'utf8'));
    deps = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
    declared.set(project, deps);
  }
  return deps;
}

const layerName = (lib) => `layer ${LAYER_OF.get(lib)}, ${LIBRARY_LAYERS[LAYER_OF.get(lib)].name}`;

/** The reason `specifier` may not be imported from `file`, or undefined when it may. */
function violation(file, specifier) {
  const project = projectOf(file);
  if (project === undefined) return undefined;
  if (specifier.startsWith('./') || specifier.startsWith('../')) {
    const target = projectOf(resolve(dirname(file), specifier));
    if (target === project) return undefined;
    return `'${specifier}' reaches into ${target ?? 'the repository root'} by relative path: import another project through its package name or its testing entry`;
  }
  const match = /^@logsvc\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?/.exec(specifier);
  if (match === null) return undefined;
  const [, name, sub] = match;
  const testing = sub === 'testing';
  if (testing && !isTestCode(file))
    return `'${specifier}' is a testing entry: only tests and their support code import it`;
  const app = NON_LIBRARY_PACKAGES[name];
  if (app !== undefined) {
    if (specifier in TESTING_ENTRIES) return undefined;
    return `'${specifier}' is ${app}: no other project imports it (tests use its testing entry, if it has one)`;
  }
  if (!LAYER_OF.has(name))
    return `'${specifier}' is no library of libs/ (tools/scripts/layers.mjs)`;
  if (project.startsWith('libs/')) {
    const own = project.slice('libs/'.length);
    if (name === own) {
      if (isTestCode(file)) return undefined;
      return `'${specifier}' is this library itself: import its files by relative path`;
    }
    if (!LAYER_OF.has(own)) return undefined;
    if (LAYER_OF.get(name) >= LAYER_OF.get(own))
      return `@logsvc/${own} (${layerName(own)}) may not import @logsvc/${name} (${layerName(name)}): a library imports only libraries of lower layers (docs/architecture.md, "Layers")`;
    if (!isTestCode(file) && !declaredBy(project).has(`@logsvc/${name}`))
      return `@logsvc/${own} imports @logsvc/${name} without declaring it in its package.json`;
    return undefined;
  }
  const rule = OTHER_PROJECTS[project] ?? OTHER_PROJECTS[project.split('/')[0]];
  if (rule === undefined || rule.libs === 'all' || rule.libs.includes(specifier)) return undefined;
  return `${project} imports only ${rule.libs.join(', ')} of the libraries`;
}

/** The string a node imports, if it is an import of a literal. */
function specifierOf(node) {
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportNamedDeclaration':
    case 'ExportAllDeclaration':
    case 'ImportExpression':
      return node.source?.type === 'Literal' ? node.source.value : undefined;
    case 'TSImportType': {
      const arg = node.argument;
      const literal = arg?.type === 'TSLiteralType' ? arg.literal : arg;
      return literal?.type === 'Literal' ? literal.value : undefined;
    }
    case 'CallExpression': {
      const callee = node.callee;
      const named =
        (callee.type === 'Identifier' && callee.name === 'require') ||
        (callee.type === 'MemberExpression' &&
          callee.object.type === 'Identifier' &&
          callee.object.name === 'vi' &&
          callee.property.type === 'Identifier' &&
          ['mock', 'doMock', 'importActual', 'importMock'].includes(callee.property.name));
      const [first] = node.arguments;
      return named && first?.type === 'Literal' ? first.value : undefined;
    }
    default:
      return undefined;
  }
}

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Project layers and package-name imports (tools/scripts/layers.mjs)' },
    schema: [],
    messages: { violation: '{{reason}}' },
  },
  create(context) {
    const file = context.filename;
    const check = (node) => {
      const specifier = specifierOf(node);
      if (typeof specifier !== 'string') return;
      const reason = violation(file, specifier);
      if (reason !== undefined) context.report({ node, messageId: 'violation', data: { reason } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportType: check,
      CallExpression: check,
    };
  },
};

export const boundariesPlugin = { rules: { boundaries } };
