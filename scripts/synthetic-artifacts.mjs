// Writes a synthetic .contextia/ of N records (norms, decisions, specs, tasks) with links,
// requires, supersede chains, domains and paths, plus a small source tree they point at.
// Deterministic: the same N gives the same files. Used by bench/rules-map.mjs and the
// decision-map browser test.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const DOMAINS = ['billing', 'payments', 'accounts', 'search', 'catalog', 'shipping', 'auth', 'reports'];
const pad = (n) => String(n).padStart(4, '0');

/** Write `count` records under `dir`; returns their ids. */
export function writeSyntheticRepo(dir, count) {
  const ids = [];
  const files = {};
  const perType = { norm: Math.round(count * 0.1), spec: Math.round(count * 0.2), task: Math.round(count * 0.1) };
  perType.decision = count - perType.norm - perType.spec - perType.task;
  const prefix = { norm: 'NORM', spec: 'SPEC', task: 'TASK', decision: 'DEC' };
  const folder = { norm: 'system/norms', spec: 'system/specs', task: 'work/tasks', decision: 'system/rationale' };
  const status = { norm: 'active', spec: 'active', task: 'todo', decision: 'accepted' };
  for (const d of DOMAINS) {
    for (let i = 0; i < 5; i++) files[`src/${d}/mod${i}.ts`] = `export function ${d}${i}(x: number): number {\n  return x + ${i};\n}\n`;
  }
  for (const type of ['norm', 'spec', 'decision', 'task']) {
    for (let i = 1; i <= perType[type]; i++) {
      const id = `${prefix[type]}-${pad(i)}`;
      const domain = DOMAINS[i % DOMAINS.length];
      const lines = ['---', `id: ${id}`, `type: ${type}`, `title: ${type} ${i} about ${domain} rule ${i % 17}`];
      let st = status[type];
      // every 10th decision is superseded by the next one
      if (type === 'decision' && i % 10 === 1 && i < perType.decision) st = 'superseded';
      lines.push(`status: ${st}`, `domain: ${domain}`, `summary: ${JSON.stringify(`Summary of ${id}: ${domain} records follow rule ${i % 17}.`)}`, `keywords: [${domain}, rule${i % 17}]`);
      const links = [];
      if (type !== 'spec' && perType.spec) links.push(`  specs: [SPEC-${pad(1 + (i % perType.spec))}]`);
      if (type === 'task' && perType.decision) links.push(`  decisions: [DEC-${pad(1 + (i % perType.decision))}]`);
      if (links.length) lines.push('links:', ...links);
      if (type === 'decision' && i % 10 === 2) lines.push('relations:', `  supersedes: [DEC-${pad(i - 1)}]`);
      if (type === 'decision' && i % 7 === 0 && perType.norm) lines.push(`requires: [NORM-${pad(1 + (i % perType.norm))}]`);
      if (i % 3 !== 0) lines.push(`paths: [src/${domain}/mod${i % 5}.ts]`);
      lines.push('---', `# ${type} ${i}`, '', `Context for ${id}.`, '', '## Decision', '', `Records in ${domain} follow rule ${i % 17}; see ${id}.`, '');
      files[`.contextia/${folder[type]}/${id}.md`] = lines.join('\n');
      ids.push(id);
    }
  }
  for (const [p, c] of Object.entries(files)) {
    const abs = path.join(dir, p);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, c);
  }
  return ids;
}
