import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { fixtureFiles } from './helpers.js';

const art = (id: string, type: string, extra = '') => `---\nid: ${id}\ntype: ${type}\ntitle: ${id} title\nstatus: accepted\n${extra}---\n\n# ${id}\n`;

function repoWithArtifacts() {
  const repo = makeRepo({
    ...fixtureFiles('code-annotations'),
    'package.json': '{ "name": "root" }\n',
    'src/billing/package.json': '{ "name": "billing" }\n',
    '.contextia/system/specs/SPEC-GENERATE.md': art('SPEC-GENERATE', 'spec'),
    '.contextia/system/specs/SPEC-BILLING-001.md': art('SPEC-BILLING-001', 'spec'),
    '.contextia/system/specs/SPEC-BILLING-FILE.md': art('SPEC-BILLING-FILE', 'spec'),
    '.contextia/system/specs/SPEC-DIR.md': art('SPEC-DIR', 'spec', 'paths: [src/billing/**]\n'),
    '.contextia/system/specs/SPEC-SRC.md': art('SPEC-SRC', 'spec', 'paths: ["src/**/*.ts"]\n'),
    '.contextia/system/rationale/DEC-ANCHORED.md': art('DEC-ANCHORED', 'decision', 'anchors: ["src/billing/invoice.ts#InvoiceGenerator.generate"]\n'),
    '.contextia/system/norms/NORM-PKG.md': art('NORM-PKG', 'norm', 'paths: [src/billing]\n'),
    '.contextia/work/tasks/TASK-042.md': art('TASK-042', 'task').replace('accepted', 'active'),
  });
  repo.commit('fixture');
  return repo;
}

describe('git ctx trace', () => {
  it('lists what governs a symbol, nearest first, and says how each matched', () => {
    const repo = repoWithArtifacts();
    const r = runCli(['trace', 'src/billing/invoice.ts#InvoiceGenerator.generate', '--format', 'json'], { cwd: repo.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    // explicit order checks, nearest first
    const ids = out.entries.map((e: { id: string }) => e.id);
    expect(ids.slice(0, 3).sort()).toEqual(['DEC-ANCHORED', 'SPEC-GENERATE', 'TASK-042']);
    expect(ids[3]).toBe('SPEC-BILLING-001'); // the enclosing class
    expect(ids[4]).toBe('SPEC-BILLING-FILE'); // the file header
    expect(ids.indexOf('SPEC-SRC')).toBeGreaterThan(4); // paths glob: directory level
    expect(ids.slice(-2)).toEqual(['NORM-PKG', 'SPEC-DIR']); // cover the package as a whole
    const byId = Object.fromEntries(out.entries.map((e: { id: string }) => [e.id, e]));
    expect(byId['SPEC-GENERATE'].match.how).toBe('@spec on InvoiceGenerator.generate (src/billing/invoice.ts:58)');
    expect(byId['SPEC-DIR'].match).toMatchObject({ level: 'package', via: 'paths' });
    expect(byId['NORM-PKG'].match.level).toBe('package');
    expect(byId['SPEC-SRC'].match).toMatchObject({ level: 'directory', distance: 1 });
    expect(out.package).toBe('src/billing');
    expect(byId['SPEC-GENERATE'].known).toBe(true);
  });

  it('accepts path:line and renders human output; unknown paths exit 2', () => {
    const repo = repoWithArtifacts();
    const r = runCli(['trace', 'invoice.ts:64'], { cwd: `${repo.dir}/src/billing` });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('src/billing/invoice.ts:64  package: src/billing');
    expect(r.stdout).toMatch(/symbol\s+SPEC-GENERATE\s+spec accepted/);
    expect(r.stdout).toContain('via @spec on InvoiceGenerator.generate (src/billing/invoice.ts:58)');
    // an id no artifact declares is listed and marked
    const unknown = runCli(['trace', 'src/billing/invoice.ts:72'], { cwd: repo.dir });
    expect(unknown.stdout).toMatch(/symbol\s+DEC-AFTER-DECORATOR\s+unknown id/);
    const missing = runCli(['trace', 'src/nope.ts'], { cwd: repo.dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or directory');
  });
});

describe('git ctx graph', () => {
  it('walks callers and callees through the type checker', () => {
    const repo = repoWithArtifacts();
    const r = runCli(['graph', 'src/billing/invoice.ts#roundBankers', '--callers', '--format', 'json'], { cwd: repo.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const g = JSON.parse(r.stdout);
    expect(g.root).toBe('src/billing/invoice.ts#roundBankers');
    const callers = g.nodes.filter((n: { distance: number }) => n.distance < 0).map((n: { id: string }) => n.id);
    expect(callers).toEqual(['src/billing/default-fn.ts#default', 'src/billing/invoice.ts#InvoiceGenerator.generate']);
    expect(g.nodes.find((n: { id: string }) => n.id === 'src/billing/invoice.ts#InvoiceGenerator.generate').governedBy).toEqual(
      expect.arrayContaining(['SPEC-GENERATE', 'TASK-042', 'SPEC-BILLING-001']),
    );
    // only the files that mention the name were loaded
    expect(g.loadedFiles).toBe(2);

    const c = runCli(['graph', 'src/billing/invoice.ts#InvoiceGenerator.preview', '--callees', '--depth', '2', '--json'], { cwd: repo.dir });
    expect(c.code).toBe(0);
    const cg = JSON.parse(c.stdout);
    const callees = cg.nodes.filter((n: { distance: number }) => n.distance > 0).map((n: { id: string; distance: number }) => `${n.distance} ${n.id}`);
    // decorator factories are calls too (made when the class is defined), across files
    expect(callees).toEqual([
      '1 src/billing/decorators.ts#special',
      '1 src/billing/invoice.ts#InvoiceGenerator.generate',
      '1 src/billing/invoice.ts#formatAmount',
      '2 src/billing/decorators.ts#Post',
      '2 src/billing/invoice.ts#billingApi.total',
      '2 src/billing/invoice.ts#roundBankers',
    ]);
    const human = runCli(['graph', 'src/billing/invoice.ts#roundBankers'], { cwd: repo.dir });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('callers');
    const bad = runCli(['graph', 'src/billing/invoice.ts'], { cwd: repo.dir });
    expect(bad.code).toBe(2);
  });

  it('walks Python callers and callees through the code graph index, with what governs each', () => {
    const repo = makeRepo({
      '.contextia/system/specs/SPEC-ORDERS.md': art('SPEC-ORDERS', 'spec'),
      'app/__init__.py': '',
      'app/orders.py': '# @spec SPEC-ORDERS\nfrom app.pricing import total\n\n\ndef place(items):\n    return total(items)\n',
      'app/pricing.py': 'def total(items):\n    return round(sum(items), 2)\n',
      'app/cli.py': 'from app import orders\n\n\ndef main():\n    orders.place([1, 2])\n',
    });
    repo.commit('python');
    const r = runCli(['graph', 'app/orders.py#place', '--json'], { cwd: repo.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const g = JSON.parse(r.stdout);
    expect(g.nodes.map((n: { id: string; distance: number }) => `${n.distance} ${n.id}`)).toEqual(['-1 app/cli.py#main', '0 app/orders.py#place', '1 app/pricing.py#total']);
    expect(g.nodes.find((n: { id: string }) => n.id === 'app/orders.py#place').governedBy).toEqual(['SPEC-ORDERS']);
    expect(g.edges).toEqual([
      { from: 'app/cli.py#main', to: 'app/orders.py#place', file: 'app/cli.py', line: 5 },
      { from: 'app/orders.py#place', to: 'app/pricing.py#total', file: 'app/orders.py', line: 6 },
    ]);
    const human = runCli(['graph', 'app/orders.py#place', '--callers'], { cwd: repo.dir });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('app/cli.py#main');
    expect(human.stdout).not.toContain('type checker');
    // a base class only subclassed has no call edges: the output says so
    repo.commit('base class', { 'app/base.py': 'class Store:\n    def open(self):\n        raise NotImplementedError\n', 'app/memory.py': 'from app.base import Store\n\n\nclass MemoryStore(Store):\n    def open(self):\n        return {}\n' });
    const lonely = runCli(['graph', 'app/base.py#Store'], { cwd: repo.dir });
    expect(lonely.code, lonely.stderr).toBe(0);
    expect(lonely.stdout).toContain('no callers or callees found');
    const missing = runCli(['graph', 'app/orders.py#nope'], { cwd: repo.dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no symbol nope in app/orders.py');
  });
});
