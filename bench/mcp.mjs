#!/usr/bin/env node
// Benchmark: warm get_context latency of the MCP server on a generated repository with
// 2,000 artifacts, over the SDK's InMemoryTransport with a real Client (no process spawn).
// Usage: npm run build && node bench/mcp.mjs [--artifacts N] [--calls N]
// Targets: phase 1 and phase 2 warm p50 < 20 ms, p95 < 50 ms. Each call re-checks the
// working tree (git status of .contextia), so the figures include that process spawn.
import './lib/help.mjs';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer } from '../dist/mcp/index.js';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const N = opt('--artifacts', 2000);
const CALLS = opt('--calls', 200);

const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-mcp-'));
const git = (...a) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
git('init', '-q', '-b', 'main');
git('config', 'user.email', 'bench@example.com');
git('config', 'user.name', 'bench');
git('config', 'commit.gpgsign', 'false');

// realistic shape: specs, decisions, norms and tasks in all three scopes, with requires chains
const kinds = [['spec', 'SPEC', 'system/specs', 0.1], ['decision', 'DEC', 'system/rationale', 0.55], ['norm', 'NORM', 'system/norms', 0.15], ['task', 'TASK', 'work/tasks', 0.2]];
const all = [];
let k = 0;
for (const [type, prefix, folder, share] of kinds) {
  mkdirSync(path.join(dir, '.contextia', folder), { recursive: true });
  for (let i = 0; i < Math.round(N * share); i++) all.push({ type, id: `${prefix}-${String(++k).padStart(5, '0')}`, folder });
}
const norms = all.filter((a) => a.type === 'norm').map((a) => a.id);
const para = 'The service validates input at the boundary and keeps money in integer minor units. '.repeat(4);
all.forEach((a, i) => {
  const scope = i % 20 === 0 ? 'global' : i % 7 === 0 ? 'domain' : 'project';
  // requires form a shallow DAG as in real repositories: artifacts require a couple of
  // norms, and a norm requires at most one more general norm (a tree about four levels deep)
  const j = norms.indexOf(a.id);
  const requires = a.type === 'norm' ? (j > 0 ? [norms[Math.floor((j - 1) / 4)]] : []) : [norms[(i * 13) % norms.length], norms[(i * 29 + 7) % norms.length]].filter((r, x, arr) => arr.indexOf(r) === x);
  const status = { spec: 'active', decision: 'accepted', norm: 'active', task: 'todo' }[a.type];
  writeFileSync(
    path.join(dir, '.contextia', a.folder, `${a.id}.md`),
    `---\nid: ${a.id}\ntype: ${a.type}\ntitle: ${a.type} number ${i} about billing rounding\nstatus: ${status}\nscope: ${scope}\nsummary: One line summary of ${a.id} for the index.\nrequires: [${requires.join(', ')}]\n---\n\n# ${a.id}\n\n${para}\n\n## Details\n\n${para}\n`,
  );
});
writeFileSync(path.join(dir, '.contextia/baseline.md'), `- ${all[0].id}\n- ${all[1].id}\n`);
git('add', '-A');
git('commit', '-q', '-m', 'artifacts');

const server = createServer({ cwd: dir, log: () => undefined });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(clientSide);

const call = async (a) => {
  const t = performance.now();
  const r = await client.callTool({ name: 'get_context', arguments: a });
  if (r.isError) throw new Error(r.content[0].text);
  return performance.now() - t;
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const measure = async (label, argsFor) => {
  const cold = await call(argsFor(0));
  for (let i = 0; i < 5; i++) await call(argsFor(i));
  const times = [];
  for (let i = 0; i < CALLS; i++) times.push(await call(argsFor(i)));
  console.log(`${label.padEnd(44)} cold ${cold.toFixed(0).padStart(5)} ms   warm p50 ${pct(times, 50).toFixed(1).padStart(6)} ms   p95 ${pct(times, 95).toFixed(1).padStart(6)} ms   (${CALLS} calls)`);
};

console.log(`git-ctx MCP benchmark: ${all.length} artifacts, InMemoryTransport, node ${process.version}`);
await measure('phase 1: index (default budget)', () => ({}));
await measure('phase 1: index filtered (areas=decision)', () => ({ areas: ['decision'], status: 'accepted' }));
const picks = [all[3].id, all[500].id, all[1200].id];
await measure('phase 2: 3 ids + requires (same ids)', () => ({ ids: picks }));
await measure('phase 2: rotating ids (each call different)', (i) => ({ ids: [all[(i * 37) % all.length].id] }));
await measure('phase 2: with session_id (rotating ids)', (i) => ({ ids: [all[(i * 53) % all.length].id], session_id: 'bench' }));

// the floor of every warm call: the one git process that proves the artifacts unchanged
const statusTimes = [];
for (let i = 0; i < CALLS; i++) {
  const t = performance.now();
  await new Promise((resolve, reject) => execFile('git', ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--', '.contextia'], { cwd: dir }, (e) => (e ? reject(e) : resolve())));
  statusTimes.push(performance.now() - t);
}
console.log(`${'(floor) git status of .contextia alone'.padEnd(44)}                 p50 ${pct(statusTimes, 50).toFixed(1).padStart(6)} ms   p95 ${pct(statusTimes, 95).toFixed(1).padStart(6)} ms`);

await client.close();
await server.close();
rmSync(dir, { recursive: true, force: true });
