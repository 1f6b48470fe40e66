// The layer order of src/ and the lint rule that holds the code to it (DEC-047).
// docs/architecture.md draws the same order and says what each layer answers.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folders of src/ (and the files directly in it, by name without extension), lowest layer
 * first. A module may import its own folder and any folder of a lower layer, never one of a
 * higher layer nor a sibling in its own layer: so the folders can never import each other in
 * a circle, and each can be read knowing only what is below it.
 */
export const LAYERS = [
  ['package-root'], //      where git-ctx's own package (data/, hooks/, dist/) is
  ['errors', 'version'], // what every layer may throw or print as its version
  ['util'], //              small helpers with no domain knowledge
  ['git'], //               running git, the git directory, locks under it
  ['cache'], //             every .git/ctx cache: files, keys, formats
  ['tree'], //              what is in the tree and whether it changed
  ['snapshot'], //          worktree | index | commit views of the repository
  ['config'], //            .contextia/config.yaml read from a snapshot
  ['artifacts'], //         records: schema, parse, per-format sources, load, link graph, writes
  ['code'], //              annotations, symbols, fingerprints, the code index and call graph
  ['store'], //             the evidence store: journals, database, projections
  ['staleness'], //         is a record still true of the code?
  ['place'], //             the place index: a place's records without reading the repository
  ['retrieve'], //          for / search / trace: lanes, fusion, the retrieval as an episode
  ['semantic'], //          embedders and the vector lane
  ['init'], //              git ctx init / new: configuration and new records
  ['authoring'], //         add, near duplicates
  ['assemble'], //          bundles: traversal, budget, tokens, renderers
  ['rules'], //             agent rule files: export, import, counting
  ['check'], //             the check rules and their run
  ['impact', 'map'], //     what a change touches; the decision map page
  ['pr'], //                a pull request's analysis
  ['hooks'], //             pre-commit and agent hooks
  ['action'], //            the GitHub Action
  ['mcp'], //               the MCP server
  ['cli'], //               the command line
  ['index'], //             the library's public surface
];

/**
 * Imports that cross the order today and are cut by work landing beside this one (issue 29).
 * Each names the file, the folder it may still reach, and who removes it; delete the entry
 * when the import is gone (an entry whose import is gone allows nothing, so a branch that
 * removes the import does not have to edit this list in the same step).
 */
export const PENDING = [
];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const RANK = new Map(LAYERS.flatMap((units, i) => units.map((u) => [u, i])));

/** The unit of an absolute path under src/: its top folder, or its own name for a file directly in src/. */
export function unitOf(file) {
  const rel = path.relative(SRC, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.[cm]?[jt]sx?$/, '');
}

/** Whether an import from `from` to `to` (units) keeps the order; the reason when it does not. */
export function crossing(from, to) {
  if (from === to) return undefined;
  const a = RANK.get(from);
  const b = RANK.get(to);
  if (a === undefined) return `src/${from} has no place in the layer order (add it to LAYERS in lint/layers.js and to docs/architecture.md)`;
  if (b === undefined) return `src/${to} has no place in the layer order (add it to LAYERS in lint/layers.js and to docs/architecture.md)`;
  if (b > a) return `${from} may not import ${to}, a higher layer`;
  if (b === a) return `${from} may not import ${to}, a sibling in the same layer`;
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const layerOrder = {
  meta: {
    type: 'problem',
    docs: { description: 'a folder of src/ imports only its own and lower layers (lint/layers.js, docs/architecture.md)' },
    schema: [],
    messages: { upward: '{{reason}}: {{spec}} (layer order: lint/layers.js, docs/architecture.md)' },
  },
  create(context) {
    const file = context.filename;
    const from = unitOf(file);
    if (!from) return {};
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    const allowed = new Set(PENDING.filter((p) => p.file === rel).map((p) => p.to));
    const check = (node, source) => {
      const spec = source && (source.type === 'Literal' ? source.value : source.type === 'TemplateLiteral' && !source.expressions.length ? source.quasis[0].value.cooked : undefined);
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = unitOf(path.resolve(path.dirname(file), spec));
      if (!to || allowed.has(to)) return;
      const reason = crossing(from, to);
      if (reason) context.report({ node, messageId: 'upward', data: { reason, spec } });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source),
      TSImportType: (n) => check(n, n.source ?? n.argument?.literal ?? n.argument),
      CallExpression: (n) => n.callee.type === 'Identifier' && n.callee.name === 'require' && check(n, n.arguments[0]),
    };
  },
};

export default { rules: { 'layer-order': layerOrder } };
