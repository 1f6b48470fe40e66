import type { Artifact } from '../../artifacts/types.js';
import { annotationId } from '../../artifacts/lookup.js';
// direct imports, not the code/ barrel: the hook loads these rules and must not pay for the graph or the parser
import { fingerprintAnchor, findEndpoint, parseAnchor, type AnchorSpec } from '../../code/anchors.js';
import { buildCodeIndex, type CodeIndex } from '../../code/code-index.js';
import { compilePaths, entryCovers } from '../../util/path-set.js';
import type { CheckContext, Finding, Rule } from '../types.js';

type Out = Omit<Finding, 'severity'>;

/** One CodeIndex per check run, shared by every rule through ctx.cache. */
export function codeIndexFor(ctx: CheckContext): Promise<CodeIndex> {
  let p = ctx.cache.get('code-index') as Promise<CodeIndex> | undefined;
  if (!p) {
    p = buildCodeIndex(ctx.snapshot, ctx.config);
    ctx.cache.set('code-index', p);
  }
  return p;
}

const keyLine = (a: Artifact, key: string) => a.keyLines[key];

/** Does an anchor cover a file? Endpoints are resolved (lazily) to the file registering them. */
async function anchorCovers(spec: AnchorSpec, file: string, index: CodeIndex): Promise<boolean> {
  switch (spec.kind) {
    case 'symbol':
    case 'lines':
      return spec.path === file;
    case 'file':
      return entryCovers(spec.path, file);
    case 'glob':
      return entryCovers(spec.pattern, file);
    case 'endpoint':
      return (await findEndpoint(index, spec.method, spec.path)).some((m) => m.file === file);
  }
}

export const ANCHOR_RULES: Rule[] = [
  {
    id: 'code-file-skipped',
    severity: 'warning',
    description: 'a source file too large (limits.max_file_bytes) or unparsable, so its annotations were not read',
    run: async (ctx) => {
      const index = await codeIndexFor(ctx);
      // binary files are expected under a code path; only what may hide annotations is reported
      return index.problems
        .filter((p) => p.kind !== 'binary')
        .map((p) => ({ rule: 'code-file-skipped', file: p.file, message: `skipped: ${p.message}; annotations in it are not seen` }));
    },
  },
  {
    id: 'annotation-unknown-id',
    severity: 'error',
    description: 'a code annotation (@spec, @decision, …) names an id no artifact declares',
    run: async (ctx) => {
      const index = await codeIndexFor(ctx);
      const out: Out[] = [];
      for (const a of index.annotations) {
        for (const id of a.ids) {
          // `@adr 5` names ADR-0005 (DEC-093)
          if (ctx.set.byId.has(annotationId(ctx.set, id))) continue;
          out.push({ rule: 'annotation-unknown-id', id, file: a.file, line: a.line, message: `@${a.tag} ${id}${a.symbol ? ` on ${a.symbol}` : ''} names no artifact` });
        }
      }
      return out;
    },
  },
  {
    id: 'dead-anchor',
    severity: 'warning',
    description: 'a frontmatter anchor that resolves to nothing (missing file, symbol, lines, or an endpoint not found in code)',
    run: async (ctx) => {
      const index = await codeIndexFor(ctx);
      const out: Out[] = [];
      for (const a of ctx.set.artifacts) {
        if (a.origin !== 'repo') continue;
        for (const raw of a.anchors) {
          const r = await fingerprintAnchor(raw, ctx.snapshot, index);
          if (r.status === 'ok') continue;
          const what =
            r.status === 'unresolved'
              ? `no code registering this endpoint was found (kept as a textual anchor)`
              : r.kind === 'symbol'
                ? 'the file or the symbol does not exist'
                : r.kind === 'lines'
                  ? 'the file or those lines do not exist'
                  : 'matches no file';
          out.push({ rule: 'dead-anchor', id: a.id, file: a.file, line: keyLine(a, 'anchors'), message: `anchor "${raw}": ${what}` });
        }
      }
      await index.flush();
      return out;
    },
  },
  {
    id: 'annotation-paths-mismatch',
    severity: 'warning',
    description:
      'a file annotates an artifact whose paths/anchors do not cover it; with anchors.strict_bidirectional, also artifact paths covering code files that do not annotate it',
    run: async (ctx) => {
      const index = await codeIndexFor(ctx);
      const out: Out[] = [];
      // direction 1: annotation outside the artifact's declared area
      const seen = new Set<string>();
      for (const ann of index.annotations) {
        for (const written of ann.ids) {
          const id = annotationId(ctx.set, written);
          const art = ctx.set.byId.get(id);
          if (!art || (!art.paths.length && !art.anchors.length)) continue;
          const key = `${id}\0${ann.file}`;
          if (seen.has(key)) continue;
          seen.add(key);
          if (compilePaths(art.paths).covers(ann.file)) continue;
          let covered = false;
          for (const raw of art.anchors) {
            if (await anchorCovers(parseAnchor(raw), ann.file, index)) {
              covered = true;
              break;
            }
          }
          if (!covered) {
            out.push({
              rule: 'annotation-paths-mismatch',
              id,
              file: ann.file,
              line: ann.line,
              message: `${ann.file} annotates ${id}, but ${id}'s paths/anchors do not cover it (${art.file})`,
            });
          }
        }
      }
      // direction 2: declared area with code that never mentions the artifact
      if (ctx.config.anchors.strict_bidirectional) {
        for (const art of ctx.set.artifacts) {
          if (art.origin !== 'repo') continue;
          const entries: { entry: string; key: string }[] = [
            ...compilePaths(art.paths).includes.map((p) => ({ entry: p, key: 'paths' })),
            ...art.anchors.map((raw) => parseAnchor(raw)).flatMap((s) => (s.kind === 'file' ? [{ entry: s.path, key: 'anchors' }] : s.kind === 'glob' ? [{ entry: s.pattern, key: 'anchors' }] : [])),
          ];
          const pathSet = compilePaths(art.paths);
          for (const { entry, key } of entries) {
            const silent = index.files.filter((f) => entryCovers(entry, f.path) && (key !== 'paths' || pathSet.covers(f.path)) && !index.annotationsIn(f.path).some((x) => x.ids.some((w) => annotationId(ctx.set, w) === art.id)));
            if (!silent.length) continue;
            const names = silent.slice(0, 5).map((f) => f.path).join(', ') + (silent.length > 5 ? `, … (${silent.length - 5} more)` : '');
            out.push({
              rule: 'annotation-paths-mismatch',
              id: art.id,
              file: art.file,
              line: keyLine(art, key),
              message: `${key} entry "${entry}" covers ${silent.length} code file(s) that do not annotate ${art.id}: ${names}`,
            });
          }
        }
      }
      return out;
    },
  },
];
