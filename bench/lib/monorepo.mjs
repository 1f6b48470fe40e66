// Generator of a large, realistic monorepo for benchmarks: N tracked files (10,000 or
// 100,000) in nested packages of TypeScript that import each other, a share of them annotated
// with artifact ids, 420 artifacts (decisions and specs under .contextia/, numbered ADRs under
// docs/adr read in place). Written with `git fast-import` (one commit) and checked out, so a
// 100,000-file repository takes well under a minute. Deterministic: the same options give the
// same files and the same commit id.
//
//   import { generateMonorepo } from './lib/monorepo.mjs';
//   const repo = generateMonorepo({ files: 100000 });   // → { dir, files, targets, … }
//
// From the command line: node bench/lib/monorepo.mjs --files 10000 [--out DIR]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seeded } from './common.mjs';

const WORDS = 'invoice currency rate ledger payment refund customer order tax rounding retry queue event schema migration cache index audit report export import webhook token session account balance settlement dispute fee discount coupon subscription plan trial usage meter quota limit region locale'.split(' ');
const AREAS = ['api', 'core', 'domain', 'adapters', 'jobs', 'ui', 'util', 'storage'];
const SUBS = ['handlers', 'models', 'services', 'mappers', 'validators', 'clients', 'hooks', 'views'];


const pad = (n, w) => String(n).padStart(w, '0');
const cap = (w) => w.replace(/^./, (c) => c.toUpperCase());

/**
 * The file list and contents of the repository, without touching the disk: an array of
 * [path, content] in path order, plus facts the benchmarks use.
 * @param {{ files?: number, annotated?: number, decisions?: number, specs?: number, adrs?: number, onTarget?: number, seed?: number }} opts
 * `onTarget`: how many records the annotated target file declares (default 1)
 */
export function monorepoContent(opts = {}) {
  const total = opts.files ?? 10000;
  const annotated = opts.annotated ?? Math.max(1, Math.round(total * 0.02));
  const nDec = opts.decisions ?? 300;
  const nSpec = opts.specs ?? 60;
  const nAdr = opts.adrs ?? 60;
  const { rand } = seeded(opts.seed ?? 19);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const camel = () => pick(WORDS) + cap(pick(WORDS));

  const out = new Map();
  const decId = (i) => `DEC-${pad(i + 1, 4)}`;
  const specId = (i) => `SPEC-${pad(i + 1, 3)}`;
  const adrName = (i) => `docs/adr/${pad(i + 1, 4)}-${WORDS[i % WORDS.length]}-${WORDS[(i * 7) % WORDS.length]}.md`;

  // fixed files
  out.set('package.json', JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }, null, 2) + '\n');
  out.set('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', baseUrl: '.', paths: { '@mono/*': ['packages/*/src'] } } }, null, 2) + '\n');
  out.set('.contextia/config.yaml', 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n');
  const fixed = 3;
  const artifacts = nDec + nSpec + nAdr;
  const codeCount = Math.max(1, total - fixed - artifacts);

  // packages: ~1 per 500 files, each with package.json, README.md and nested src/<area>/<sub>/
  const nPkg = Math.max(4, Math.round(codeCount / 500));
  const pkgs = Array.from({ length: nPkg }, (_, i) => `packages/${WORDS[i % WORDS.length]}-${pad(i, 3)}`);
  const code = [];
  let left = codeCount;
  for (const p of pkgs) {
    out.set(`${p}/package.json`, JSON.stringify({ name: `@mono/${path.posix.basename(p)}`, version: '1.0.0', main: 'src/index.ts' }, null, 2) + '\n');
    out.set(`${p}/README.md`, `# ${path.posix.basename(p)}\n\n${words(30)}\n`);
    left -= 2;
  }
  for (let i = 0; left > 0; i++, left--) {
    const p = pkgs[i % nPkg];
    const k = Math.floor(i / nPkg);
    const area = AREAS[k % AREAS.length];
    const sub = SUBS[Math.floor(k / AREAS.length) % SUBS.length];
    const isTest = k % 10 === 9;
    const dir = isTest ? `${p}/test/${area}` : `${p}/src/${area}/${sub}`;
    code.push(`${dir}/${WORDS[k % WORDS.length]}${cap(WORDS[(k * 3 + 1) % WORDS.length])}${k}${isTest ? '.test' : ''}.ts`);
  }

  // annotations: spread over the code files deterministically
  const annotatedSet = new Map();
  const step = code.length / Math.min(annotated, code.length);
  for (let j = 0; j < Math.min(annotated, code.length); j++) {
    const f = code[Math.floor(j * step)];
    annotatedSet.set(f, j % 4 === 3 ? specId(j % nSpec) : decId(j % nDec));
  }
  // the file asked about in benches, declared in `onTarget` records of its own (a
  // typescript-eslint-like file governed by 4 decisions)
  const targetFile = [...annotatedSet.keys()].filter((f) => !f.endsWith('.test.ts'))[Math.floor(annotatedSet.size / 3)];
  const extraOnTarget = Array.from({ length: Math.max(0, (opts.onTarget ?? 1) - 1) }, (_, i) => decId((i * 97 + 13) % nDec));
  const rel = (from, to) => {
    let r = path.posix.relative(path.posix.dirname(from), to).replace(/\.ts$/, '');
    return r.startsWith('.') ? r : `./${r}`;
  };
  const byPkg = new Map();
  for (const f of code) {
    const pk = f.split('/').slice(0, 2).join('/');
    if (!byPkg.has(pk)) byPkg.set(pk, []);
    byPkg.get(pk).push(f);
  }
  for (const f of code) {
    const pk = f.split('/').slice(0, 2).join('/');
    const siblings = byPkg.get(pk);
    const imps = [];
    for (let n = 0; n < 3; n++) {
      const q = siblings[Math.floor(rand() * siblings.length)];
      if (q !== f && !q.endsWith('.test.ts')) imps.push(`import { value as v${n} } from '${rel(f, q)}';`);
    }
    if (rand() < 0.2) imps.push(`import type { Shape } from '@mono/${path.posix.basename(pick(pkgs))}';`);
    const ann = annotatedSet.get(f);
    const fn = camel();
    out.set(
      f,
      `${imps.join('\n')}\n\n// ${words(10)}\n` +
        (ann ? `// @${ann.startsWith('SPEC') ? 'spec' : 'decision'} ${ann}\n` : '') +
        (f === targetFile ? extraOnTarget.map((id) => `// @decision ${id}\n`).join('') : '') +
        `export function ${fn}(x: number): string {\n  const ${camel()} = '${words(4)}';\n  return String(x) + ${JSON.stringify(words(2))};\n}\n\nexport const value = ${Math.floor(rand() * 1000)};\n`,
    );
  }

  // artifacts
  const fm = (o) => Object.entries(o).map(([k, v]) => `${k}: ${v}`).join('\n');
  for (let i = 0; i < nSpec; i++) {
    const p = pkgs[i % nPkg];
    const area = AREAS[i % AREAS.length];
    out.set(
      `.contextia/system/specs/${specId(i)}.md`,
      `---\n${fm({ id: specId(i), type: 'spec', title: words(4), status: 'active', summary: words(14), keywords: `[${words(3).split(' ').join(', ')}]`, paths: `[${p}/src/${area}/**]` })}\n---\n# ${cap(words(4))}\n\n${words(60)}\n`,
    );
  }
  for (let i = 0; i < nDec; i++) {
    const extra = {};
    if (i % 3 === 0) extra.paths = `[${pkgs[(i * 7) % nPkg]}/src/${AREAS[i % AREAS.length]}/${SUBS[i % SUBS.length]}/**]`;
    out.set(
      `.contextia/system/rationale/${decId(i)}.md`,
      `---\n${fm({ id: decId(i), type: 'decision', title: words(5), status: 'accepted', summary: words(14), keywords: `[${words(3).split(' ').join(', ')}]`, ...extra, ...(nSpec ? { links: `\n  specs: [${specId(i % nSpec)}]` } : {}) })}\n---\n# ${cap(words(5))}\n\n${words(80)}\n`,
    );
  }
  for (let i = 0; i < nAdr; i++) {
    const mention = code[Math.floor(rand() * code.length)];
    out.set(
      adrName(i),
      `# ${i + 1}. ${cap(words(4))}\n\nDate: 2024-01-${pad((i % 28) + 1, 2)}\n\n## Status\n\nAccepted\n\n## Context\n\n${words(40)} See \`${mention}\`.\n\n## Decision\n\nWe will ${words(20)}.\n\n## Consequences\n\n${words(30)}\n`,
    );
  }
  const entries = [...out.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const annotatedFiles = [...annotatedSet.keys()];
  const plain = code.filter((f) => !annotatedSet.has(f) && !f.endsWith('.test.ts'));
  return {
    entries,
    files: entries.length,
    packages: pkgs,
    annotatedFiles,
    /** a few files to ask about: an annotated one, one under a spec's `paths`, a plain one */
    targets: { annotated: annotatedFiles.filter((f) => !f.endsWith('.test.ts'))[Math.floor(annotatedFiles.length / 3)], governed: `${pkgs[0]}/src/${AREAS[0]}/${SUBS[0]}/${code.find((f) => f.startsWith(`${pkgs[0]}/src/${AREAS[0]}/${SUBS[0]}/`))?.split('/').pop()}`, plain: plain[Math.floor(plain.length / 3)] },
    plain,
    artifacts,
  };
}

/**
 * Write the repository into `dir` (a new temporary folder when absent) with one
 * `git fast-import` commit on `main`, then check it out. Returns the content facts and the
 * folder.
 */
export function generateMonorepo(opts = {}) {
  const dir = opts.dir ?? mkdtempSync(path.join(os.tmpdir(), `git-ctx-mono-${opts.files ?? 10000}-`));
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length) throw new Error(`${dir} is not empty`);
  const content = monorepoContent(opts);
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_DATE: '1700000000 +0000', GIT_COMMITTER_DATE: '1700000000 +0000' };
  const git = (args, input) => {
    const r = spawnSync('git', args, { cwd: dir, env, input, maxBuffer: 1 << 26, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout;
  };
  git(['init', '-q', '-b', 'main']);
  git(['config', 'user.name', 'Bench']);
  git(['config', 'user.email', 'bench@example.com']);
  git(['config', 'commit.gpgsign', 'false']);
  const chunks = [];
  const msg = Buffer.from(`monorepo of ${content.files} files\n`);
  chunks.push(Buffer.from(`commit refs/heads/main\nauthor Bench <bench@example.com> 1700000000 +0000\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata ${msg.length}\n`), msg);
  for (const [p, c] of content.entries) {
    const b = Buffer.from(c);
    chunks.push(Buffer.from(`M 100644 inline ${p}\ndata ${b.length}\n`), b, Buffer.from('\n'));
  }
  chunks.push(Buffer.from('\n'));
  git(['fast-import', '--quiet'], Buffer.concat(chunks));
  git(['-c', 'checkout.workers=0', 'reset', '-q', '--hard', 'main']);
  return { dir, ...content, head: git(['rev-parse', 'HEAD']).toString().trim() };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const t0 = Date.now();
  const r = generateMonorepo({ files: Number(arg('--files') ?? 10000), dir: arg('--out') });
  console.log(`${r.dir}: ${r.files} files, ${r.annotatedFiles.length} annotated, ${r.artifacts} artifacts, ${r.packages.length} packages, commit ${r.head.slice(0, 12)} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`targets: ${JSON.stringify(r.targets)}`);
}
