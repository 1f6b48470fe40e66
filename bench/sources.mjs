#!/usr/bin/env node
// Benchmark: loading 2,000 decision records read in place (adr format, no frontmatter)
// against 2,000 frontmatter artifacts with the same text (target: within 1.2x).
// Usage: npm run build && node bench/sources.mjs [--records N] [--runs N]
// With --search: warm `search`/`for` over 1,000 records, local and as two git sources (bench/lib/search-sources.mjs).
// Prints in-process load times (cold: no parse cache; warm: cache filled) and wall-clock
// `git ctx list` times beside `node -e 0`, measured in the same run.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const N = opt('--records', args.includes('--search') ? 1000 : 2000);
const RUNS = opt('--runs', args.includes('--search') ? 7 : 5);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/git-ctx.js');
if (args.includes('--search')) {
  (await import('./lib/search-sources.mjs')).benchSearch({ BIN, N, RUNS });
  process.exit(0);
}
const { openSnapshot } = await import(path.join(ROOT, 'dist/snapshot/index.js'));
const { loadConfig } = await import(path.join(ROOT, 'dist/config.js'));
const { loadArtifactSet } = await import(path.join(ROOT, 'dist/artifacts/load.js'));

const para = 'The service validates input at the boundary and keeps money in integer minor units. '.repeat(6);
const statuses = ['Accepted', 'Proposed', 'Superseded by [{n}. Previous](0{n}-previous.md)', 'Deprecated'];

function makeRepo(kind) {
  const dir = mkdtempSync(path.join(tmpdir(), `git-ctx-bench-sources-${kind}-`));
  const git = (...a) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'bench@example.com');
  git('config', 'user.name', 'bench');
  for (let m = 0; m < 50; m++) {
    mkdirSync(path.join(dir, `src/module${m}`), { recursive: true });
    writeFileSync(path.join(dir, `src/module${m}/index.ts`), `export const m${m} = ${m};\n`);
  }
  const folder = kind === 'adr' ? 'docs/adr' : '.contextia/system/rationale';
  mkdirSync(path.join(dir, folder), { recursive: true });
  if (kind === 'adr') {
    mkdirSync(path.join(dir, '.contextia'), { recursive: true });
    writeFileSync(path.join(dir, '.contextia/config.yaml'), 'sources:\n  - dir: docs/adr\n    format: adr\n');
  }
  for (let i = 1; i <= N; i++) {
    const n = String(i).padStart(4, '0');
    const title = `Decision number ${i} about module ${i % 50}`;
    const text = `## Context\n\n${para} See \`src/module${i % 50}/index.ts\`.\n\n## Decision\n\n${para}\n\n## Consequences\n\n${para}\n`;
    if (kind === 'adr') {
      const status = statuses[i % 4].replaceAll('{n}', String(Math.max(1, i - 1)));
      writeFileSync(path.join(dir, folder, `${n}-decision-${i}.md`), `# ${i}. ${title}\n\nDate: 2024-01-${String(1 + (i % 28)).padStart(2, '0')}\n\n## Status\n\n${status}\n\n${text}`);
    } else {
      const status = ['accepted', 'proposed', 'superseded', 'deprecated'][i % 4];
      writeFileSync(path.join(dir, folder, `DEC-${n}.md`), `---\nid: DEC-${n}\ntype: decision\ntitle: ${title}\nstatus: ${status}\ncreated: 2024-01-${String(1 + (i % 28)).padStart(2, '0')}\n---\n# ${title}\n\n${text}`);
    }
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'generated');
  return dir;
}

async function loadOnce(dir) {
  const t = process.hrtime.bigint();
  const snap = await openSnapshot({ cwd: dir });
  const set = await loadArtifactSet(snap, await loadConfig(snap));
  snap.close();
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (set.artifacts.length !== N) throw new Error(`expected ${N} records in ${dir}, loaded ${set.artifacts.length}`);
  return ms;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function wall(argv, cwd) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const repos = { contextia: makeRepo('contextia'), adr: makeRepo('adr') };
const res = { contextia: {}, adr: {} };
// cold runs alternate between the two kinds after one unmeasured run of each, so neither pays
// for compiling the shared code first (the order of two back-to-back series biased the ratio)
const cold = { contextia: [], adr: [] };
for (let r = -1; r < RUNS; r++) {
  for (const [kind, dir] of Object.entries(repos)) {
    rmSync(path.join(dir, '.git/ctx'), { recursive: true, force: true });
    const ms = await loadOnce(dir);
    if (r >= 0) cold[kind].push(ms);
  }
}
for (const [kind, dir] of Object.entries(repos)) {
  await loadOnce(dir);
  const warm = [];
  for (let r = 0; r < RUNS; r++) warm.push(await loadOnce(dir));
  wall([BIN, 'list'], dir);
  const list = Array.from({ length: RUNS }, () => wall([BIN, 'list'], dir));
  res[kind] = { cold: median(cold[kind]), warm: median(warm), list: median(list) };
}
const nodeOnly = median(Array.from({ length: RUNS }, () => wall(['-e', '0'], ROOT)));
console.log(`${N} records, median of ${RUNS} runs (node -e 0: ${nodeOnly.toFixed(0)} ms, NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'unset'})`);
for (const k of ['cold', 'warm', 'list']) {
  const a = res.adr[k];
  const c = res.contextia[k];
  const label = k === 'list' ? 'git ctx list (wall)' : `load ${k} (in process)`;
  console.log(`${label.padEnd(26)} frontmatter ${c.toFixed(0).padStart(5)} ms   adr ${a.toFixed(0).padStart(5)} ms   ratio ${(a / c).toFixed(2)}x`);
}
if (!process.env.KEEP) for (const dir of Object.values(repos)) rmSync(dir, { recursive: true, force: true });
else console.log(repos);
