import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { exampleWithDrift } from './helpers.js';

describe('git ctx map', () => {
  it('maps the example: typed edges, supersede chains, staleness with the commits behind it', () => {
    const repo = exampleWithDrift();
    const r = runCli(['map', '--json'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data.nodes).toHaveLength(19);
    const node = (id: string) => data.nodes.find((n: { id: string }) => n.id === id);
    expect(node('DEC-BILLING-001')).toMatchObject({ type: 'decision', status: 'accepted', domain: 'billing', staleness: 'stale', inactive: false, paths: ['src/billing/invoice/totals.ts'] });
    expect(node('DEC-BILLING-001').commits).toEqual([expect.objectContaining({ author: 'Test Author', subject: 'Round totals per invoice, not per line', anchor: 'src/billing/invoice/totals.ts' })]);
    expect(node('DEC-BILLING-001').drift).toEqual([{ anchor: 'src/billing/invoice/totals.ts', state: 'changed' }]);
    expect(node('DEC-CURRENCY-001').staleness).toBe('fresh');
    expect(node('NORM-ERROR-001').staleness).toBe('unanchored');
    expect(node('DEC-BILLING-000')).toMatchObject({ status: 'superseded', inactive: true, supersededBy: ['DEC-BILLING-001'] });
    expect(data.edges).toContainEqual({ id: 'DEC-BILLING-001|supersedes|DEC-BILLING-000', source: 'DEC-BILLING-001', target: 'DEC-BILLING-000', kind: 'supersedes' });
    const kinds = new Set(data.edges.map((e: { kind: string }) => e.kind));
    for (const k of ['link', 'requires', 'supersedes', 'depends_on']) expect(kinds).toContain(k);
    expect(data.types.slice(0, 3)).toEqual(['identity', 'task', 'spec']);
  });

  it('writes a self-contained page under .git/ctx by default and prints its path; -o and --at', () => {
    const repo = makeRepo({ '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: "</script><script>alert(1)</script>"\nstatus: accepted\n---\n# x\n' });
    const first = repo.commit('one');
    repo.commit('two', { '.contextia/system/rationale/DEC-002.md': '---\nid: DEC-002\ntype: decision\nstatus: accepted\n---\n# y\n' });
    const r = runCli(['map'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    const file = r.stdout.trim();
    expect(file).toBe(path.join(repo.dir, '.git/ctx/map.html'));
    // what the page holds is said on stderr; stdout is the path alone
    expect(r.stderr).toContain("map: 2 records, 0 edges\n");
    const html = readFileSync(file, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    // no external resource of any kind, and the hostile title cannot close the data element
    expect(html).not.toMatch(/<script[^>]+src=|<link\b|<img\b|@import|https?:\/\/[^"'\s]*\.(js|css)/i);
    expect(html).toContain("default-src 'none'");
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    expect(html).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script>');
    expect(html).toContain('Cytoscape Consortium');

    const out = path.join(tempDir(), 'old.html');
    expect(runCli(['map', '-o', out, '--at', first], { cwd: repo.dir }).stdout.trim()).toBe(out);
    const old = readFileSync(out, 'utf8');
    expect(old).toContain('1 records · 0 edges · commit at ' + first.slice(0, 12));
    expect(runCli(['map', '--at', 'no-such-rev'], { cwd: repo.dir }).code).toBe(2);
    expect(runCli(['map', '--help'], { cwd: repo.dir }).stdout).toContain('Examples:');
  });
});
