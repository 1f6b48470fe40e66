// @spec SPEC-SEMANTIC-001

import path from 'node:path';
import type { Command } from '../commander.js';
import { CtxError } from '../../errors.js';
import { plural } from '../../util/plural.js';
import { addRepoOptions, formatOption, io, loadRepo, type RepoContext, type RepoOptions } from '../shared.js';
import { now } from '../../util/timing.js';

interface VectorsCliOptions extends RepoOptions {
  format: 'human' | 'json';
  json?: boolean;
  all?: boolean;
  progress?: boolean;
}

const rel = (repo: RepoContext, f: string | undefined) => (f ? path.relative(repo.cwd, f) || f : undefined);

function withCommon(cmd: Command): Command {
  return addRepoOptions(cmd.addOption(formatOption(['human', 'json'], 'human')).option('--json', 'shorthand for --format json'), { at: false, staged: false });
}

async function embedderOf(repo: RepoContext) {
  const { semanticSettings, embedderFor } = await import('../../semantic/lane.js');
  const settings = semanticSettings(repo.set, io().env);
  return { settings, embedder: embedderFor(settings.provider, settings.from, `${repo.config.dir}/config.yaml`, { settings, env: io().env, root: repo.snapshot.root }) };
}

/** `git ctx vectors status|embed|clean`: the semantic slot's record vectors under .git/ctx/. */
export function register(program: Command): void {
  const vectors = program
    .command('vectors')
    .description("Record vectors of the semantic slot (cached under .git/ctx/cache/vectors/): status, embed, clean")
    .addHelpText(
      'after',
      `
Examples:
  git ctx vectors status            # embedded, missing and orphaned records per embedder
  git ctx vectors status --json
  git ctx vectors embed             # embed the records that have no vector yet
  git ctx vectors clean             # drop vectors of records that changed or are gone
  git ctx vectors clean --all       # delete every vector file

  GIT_CTX_EMBED_PROVIDER=openai GIT_CTX_EMBED_URL=http://127.0.0.1:11434 \\
    GIT_CTX_EMBED_MODEL=nomic-embed-text git ctx vectors embed   # a local Ollama server

The embedder is config semantic.provider (default: the offline word-vector embedder;
openai: an OpenAI-compatible /v1/embeddings endpoint; gemini; onnx: a local model
directory; off disables the slot), or GIT_CTX_EMBED_PROVIDER, with GIT_CTX_EMBED_URL,
GIT_CTX_EMBED_MODEL and the key in GIT_CTX_EMBED_API_KEY (or OPENAI_API_KEY,
GEMINI_API_KEY). Vectors are also embedded on demand by git ctx search and git ctx for.`,
    );

  withCommon(vectors.command('status').description('Count embedded, missing and orphaned record vectors, for the current embedder and every cached one'))
    .addHelpText('after', '\nExit codes: 0 reported, 2 usage or environment error (e.g. an unknown provider).')
    .action(async (o: VectorsCliOptions) => {
      const repo = await loadRepo(o);
      try {
        const { settings, embedder } = await embedderOf(repo);
        const { vectorStatus } = await import('../../semantic/vectors.js');
        const { displayUrl } = await import('../../semantic/providers/http.js');
        const { vectorFiles } = await import('../../cache/vectors.js');
        if (!embedder) {
          const files = vectorFiles(repo.snapshot.root).filter((f) => f.content);
          const out = { provider: 'off', model: '', embedded: 0, missing: 0, orphaned: 0, records: repo.set.artifacts.length, providers: files.map((f) => ({ provider: f.content!.provider, model: f.content!.model, vectors: f.content!.entries.size, file: f.file })) };
          io().out(o.json || o.format === 'json' ? JSON.stringify(out, null, 2) + '\n' : `semantic slot is off (semantic.provider: off)${out.providers.length ? `; cached: ${out.providers.map((p) => `${p.provider}/${p.model} (${p.vectors} vectors)`).join(', ')}` : ''}\n`);
          return;
        }
        const s = vectorStatus(repo.snapshot.root, repo.set, embedder);
        if (o.json || o.format === 'json') {
          io().out(JSON.stringify({ ...s, embedder: `${s.provider}:${s.model}`, threshold: settings.threshold, ...(settings.url ? { url: displayUrl(settings.url) } : {}) }, null, 2) + '\n');
          return;
        }
        const lines: string[] = [];
        for (const p of s.providers) {
          lines.push(`${p.provider}/${p.model}${p.current ? ' (current)' : ''}: ${p.embedded} embedded, ${p.missing} missing, ${p.orphaned} orphaned${p.file ? `  ${rel(repo, p.file)}` : ''}`);
        }
        lines.push(`${s.records} records; threshold ${settings.threshold}${s.missing ? '; run git ctx vectors embed (or search: missing vectors are embedded on demand)' : ''}${s.orphaned ? '; git ctx vectors clean drops orphaned vectors' : ''}`);
        io().out(lines.join('\n') + '\n');
      } finally {
        repo.close();
      }
    });

  withCommon(vectors.command('embed').description('Embed the records that have no vector under the current embedder (a progress bar on a TTY)'))
    .option('--no-progress', 'no progress bar even on a TTY')
    .addHelpText('after', '\nExit codes: 0 done (or nothing to do), 2 usage or environment error (semantic slot off, unknown provider, the provider failing: bad key, model or URL, timeout; cache not writable).')
    .action(async (o: VectorsCliOptions) => {
      const repo = await loadRepo(o);
      try {
        const { embedder } = await embedderOf(repo);
        if (!embedder) throw new CtxError('USAGE', 'the semantic slot is off (semantic.provider: off or GIT_CTX_EMBED_PROVIDER=off): nothing to embed');
        const { recordVectors } = await import('../../semantic/vectors.js');
        const { vectorFile } = await import('../../cache/vectors.js');
        if (!vectorFile(repo.snapshot.root, embedder.provider, embedder.model)) throw new CtxError('USAGE', 'vectors cannot be cached here (outside a git directory, or GIT_CTX_NO_CACHE=1)');
        const tty = o.progress !== false && !!process.stderr.isTTY;
        const t0 = now();
        const r = await recordVectors(repo.snapshot.root, repo.set, embedder, {
          onProgress: tty
            ? (done, total) => {
                const w = 30;
                const fill = Math.round((done / total) * w);
                process.stderr.write(`\rembedding [${'#'.repeat(fill)}${'.'.repeat(w - fill)}] ${done}/${total}${done === total ? '\n' : ''}`);
              }
            : undefined,
        });
        const ms = Math.round(now() - t0);
        const out = { provider: embedder.provider, model: embedder.model, embedder: `${embedder.provider}:${embedder.model}`, embedded: r.embedded, records: r.byId.size, ms, ...(r.file ? { file: r.file } : {}) };
        io().out(o.json || o.format === 'json' ? JSON.stringify(out, null, 2) + '\n' : `${embedder.provider}/${embedder.model}: ${r.embedded ? `embedded ${plural(r.embedded, 'record')} in ${ms} ms` : 'every record already embedded'} (${plural(r.byId.size, 'record')})\n`);
      } finally {
        repo.close();
      }
    });

  withCommon(vectors.command('clean').description("Drop vectors of records that changed or are gone (every embedder's file); --all deletes every vector file"))
    .option('-a, --all', 'delete every vector file, for every embedder')
    .addHelpText('after', '\nExit codes: 0 done (or nothing to do), 2 usage or environment error.')
    .action(async (o: VectorsCliOptions) => {
      const repo = await loadRepo(o);
      try {
        const { cleanVectors } = await import('../../semantic/vectors.js');
        const r = cleanVectors(repo.snapshot.root, repo.set, { all: o.all });
        if (o.json || o.format === 'json') io().out(JSON.stringify(r, null, 2) + '\n');
        else {
          const parts = [`${plural(r.removedEntries, 'orphaned vector')} dropped`];
          if (r.removedFiles.length) parts.push(`${plural(r.removedFiles.length, 'file')} deleted (${r.removedFiles.map((f) => rel(repo, f)).join(', ')})`);
          io().out(parts.join('; ') + '\n');
        }
      } finally {
        repo.close();
      }
    });
}
