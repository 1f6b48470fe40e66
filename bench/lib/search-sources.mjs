// Warm `search` and `for` over ~1,000 records (issue 33, DEC-062), called by
// `node bench/sources.mjs --search [--records 1000] [--runs 7]`: the same records held locally
// as one ADR folder and as two git sources of half each, pinned and fetched. CPU (user + sys,
// getrusage through bash's `time`, best of N) beside `node -e 0` of the same run: a repeated
// search (its kept answer), a search with new words each run (warm caches, computed), `for`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const WORDS = 'retry queue policy cache token budget service boundary money ledger index search vector embed plan schema migration audit event stream worker lock timeout backoff circuit breaker'.split(' ');

function repo(name) {
  const dir = mkdtempSync(path.join(tmpdir(), `git-ctx-bench-search-${name}-`));
  const git = (...a) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'bench@example.com');
  git('config', 'user.name', 'bench');
  return { dir, git };
}

/** Records `from`..`to` as ADR files under `folder`, their words drawn from WORDS by number. */
function writeAdrs(dir, folder, from, to) {
  mkdirSync(path.join(dir, folder), { recursive: true });
  for (let i = from; i <= to; i++) {
    const w = (k) => WORDS[(i * 7 + k * 13) % WORDS.length];
    const para = `The ${w(1)} of the ${w(2)} uses a ${w(3)} with ${w(4)} and ${w(5)}. `.repeat(5);
    writeFileSync(path.join(dir, folder, `${String(i).padStart(4, '0')}-decision-${i}.md`), `# ${i}. Decision ${i} about ${w(0)} ${w(1)}\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\n${para} See \`src/module${i % 50}/index.ts\`.\n\n## Decision\n\n${para}\n\n## Consequences\n\n${para}\n`);
  }
}

function service(name, config) {
  const r = repo(name);
  for (let m = 0; m < 50; m++) {
    mkdirSync(path.join(r.dir, `src/module${m}`), { recursive: true });
    writeFileSync(path.join(r.dir, `src/module${m}/index.ts`), `export const m${m} = ${m};\n`);
  }
  mkdirSync(path.join(r.dir, '.contextia'), { recursive: true });
  writeFileSync(path.join(r.dir, '.contextia/config.yaml'), config);
  return r;
}

function cpuMs(bin, argv, cwd) {
  const cmd = ['node', ...argv].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='%3U %3S'; { time ${cmd} >/dev/null 2>/tmp/git-ctx-bench-search.err; } 2>&1`], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` } });
  const [u, s] = r.stdout.trim().split('\n').pop().split(' ').map(Number);
  if (r.status !== 0 || !Number.isFinite(u)) throw new Error(`${argv.join(' ')} failed in ${cwd}: ${r.stdout}${r.stderr}`);
  return (u + s) * 1000;
}

export function benchSearch({ BIN, N, RUNS }) {
  const local = service('local', 'sources:\n  - dir: docs/adr\n    format: adr\n');
  writeAdrs(local.dir, 'docs/adr', 1, N);
  local.git('add', '-A');
  local.git('commit', '-q', '-m', 'records');
  const ups = [1, 2].map((k) => {
    const up = repo(`upstream${k}`);
    writeAdrs(up.dir, 'adr', (k - 1) * (N / 2) + 1, (k * N) / 2);
    up.git('add', '-A');
    up.git('commit', '-q', '-m', 'standards');
    return up;
  });
  const fed = service('federated', `sources:\n${ups.map((u, k) => `  - git: ${u.dir}\n    ref: main\n    dir: adr\n    format: adr\n    prefix: S${k + 1}-\n    name: standards${k + 1}\n`).join('')}`);
  execFileSync(process.execPath, [BIN, 'sources', 'update'], { cwd: fed.dir, stdio: 'ignore' });
  fed.git('add', '-A');
  fed.git('commit', '-q', '-m', 'sources');
  const best = (f) => Math.min(...Array.from({ length: RUNS }, f));
  const rows = [];
  let fresh = 0;
  for (const [name, r] of [['local', local], ['federated', fed]]) {
    // warm: every cache filled (and a file changed over a second ago, so answers may be kept)
    for (let i = 0; i < 2; i++) {
      cpuMs(BIN, [BIN, 'search', 'retry queue policy'], r.dir);
      cpuMs(BIN, [BIN, 'for', 'src/module3/index.ts'], r.dir);
    }
    const node = best(() => cpuMs(BIN, ['-e', '0'], r.dir));
    const repeated = best(() => cpuMs(BIN, [BIN, 'search', 'retry queue policy'], r.dir));
    // new words each run: nothing kept answers it, every other cache is warm
    const computed = best(() => cpuMs(BIN, [BIN, 'search', `${WORDS[fresh++ % WORDS.length]} ${WORDS[(fresh * 5) % WORDS.length]} policy`], r.dir));
    const forPlace = best(() => cpuMs(BIN, [BIN, 'for', 'src/module3/index.ts'], r.dir));
    rows.push({ name, node, repeated, computed, forPlace });
  }
  console.log(`${N} records (local ADR folder; two git sources of ${N / 2}), CPU user+sys, best of ${RUNS}, NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'unset'}`);
  for (const r of rows) {
    const d = (x) => `${x.toFixed(0).padStart(4)} ms (+${(x - r.node).toFixed(0)})`;
    console.log(`${r.name.padEnd(10)} node -e 0 ${r.node.toFixed(0).padStart(3)} ms   search repeated ${d(r.repeated)}   search new words ${d(r.computed)}   for ${d(r.forPlace)}`);
  }
  if (!process.env.KEEP) for (const d of [local.dir, fed.dir, ...ups.map((u) => u.dir)]) rmSync(d, { recursive: true, force: true });
  else console.log({ local: local.dir, federated: fed.dir });
}
