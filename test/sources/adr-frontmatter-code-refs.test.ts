import { describe, expect, it } from 'vitest';
import { repoPathOf, frontmatterPaths } from '../../src/artifacts/sources/code-refs.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// HubEvolution/EvolutionHub's shape (papercuts32): each ADR starts with YAML frontmatter whose
// `codeRefs:` is one comma-separated string of the files it governs; git-ctx showed the key and
// read none of it, so `for`, `trace` and PR governance never named the records for their code.
const record = (front: string, title: string, body: string): string => `---\n${front}---\n\n# ${title}\n\n## Status\n\nAccepted\n\n## Kontext\n\n${body}\n`;

function edgeRepo() {
  const repo = makeRepo({
    'package.json': '{"name":"site","private":true}\n',
    'wrangler.toml': 'name = "site"\n',
    'astro.config.mjs': 'export default {};\n',
    'src/middleware.ts': 'export const onRequest = () => undefined;\n',
    'src/lib/db/client.ts': 'export const db = {};\n',
    'migrations/0001_orders.sql': 'create table orders (id integer);\n',
    'docs/adr/0001-edge-runtime.md': record("status: active\ndate: '2025-10-01'\ncodeRefs: './astro.config.mjs, wrangler.toml, src/middleware.ts, package.json'\ntestRefs: 'N/A'\n", 'ADR-0001: Edge runtime for every request', 'Requests are answered at the edge by the middleware.'),
    'docs/adr/0002-order-storage.md': record("status: active\ncode_refs:\n  - migrations/**\n  - src/lib/db\n  - N/A\n  - /etc/hosts\n  - ../shared/schema.sql\n  - https://example.org/schema\n", 'ADR-0002: Orders live in the edge database', 'Orders are rows of the edge database, changed by migrations only.'),
    'docs/adr/0003-session-cookies.md': record("status: active\ncode-refs: 'src/session/cookies.ts (planned), package.json'\n", 'ADR-0003: Sessions in signed cookies', 'A session is a signed cookie.'),
  });
  repo.commit('records');
  return repo;
}

describe('code references in an ADR’s own frontmatter', () => {
  it('are repository paths: ./ dropped, placeholders, addresses, absolute and climbing paths left out, a remark around a path set aside', () => {
    expect(repoPathOf(' ./src/app.ts ')).toBe('src/app.ts');
    expect(repoPathOf('src/lib/db/')).toBe('src/lib/db/');
    for (const none of ['N/A', 'n/a', '', ' ', '-', '/etc/hosts', '~/notes.md', 'C:\\repo\\x.ts', '../x.ts', 'src/../../x.ts', 'https://example.org/a.ts', '.', './']) expect(repoPathOf(none), none).toBeUndefined();
    expect(repoPathOf('legacy: src/auth/**')).toBe('src/auth/**');
    expect(repoPathOf('src/auth/** (legacy)')).toBe('src/auth/**');
    expect(repoPathOf('legacy migrations/**')).toBe('migrations/**');
    expect(frontmatterPaths({ paths: ['a.ts'], codeRefs: 'a.ts, b.ts, N/A', testRefs: 'c.ts' })).toEqual(['a.ts', 'b.ts']);
  });

  it('make the record govern the files: for ranks it by its paths, trace shows it, a bare top-level file counts', () => {
    const repo = edgeRepo();
    const forMw = runCli(['for', 'src/middleware.ts', '--json'], { cwd: repo.dir });
    expect(forMw.code, forMw.stderr).toBe(0);
    const first = JSON.parse(forMw.stdout).results[0];
    expect(first).toMatchObject({ id: 'ADR-0001', slot: 'declared' });
    expect(first.why[0]).toMatchObject({ kind: 'paths', text: expect.stringContaining('paths: src/middleware.ts') });
    const db = runCli(['trace', 'src/lib/db/client.ts', '--json'], { cwd: repo.dir });
    expect(JSON.parse(db.stdout).entries.map((e: { id: string; match: { via: string } }) => [e.id, e.match.via])).toEqual([['ADR-0002', 'paths']]);
    const mig = runCli(['trace', 'migrations/0001_orders.sql'], { cwd: repo.dir });
    expect(mig.stdout).toContain('ADR-0002');
    // package.json is named by two records: the team declared it, so both govern it
    const pkg = JSON.parse(runCli(['for', 'package.json', '--json'], { cwd: repo.dir }).stdout).results.filter((r: { slot: string }) => r.slot === 'declared');
    expect(pkg.map((r: { id: string }) => r.id).sort()).toEqual(['ADR-0001', 'ADR-0003']);
  });

  it('check warns at the key’s line for a reference that matches no file, by the key the team wrote', () => {
    const repo = edgeRepo();
    const r = runCli(['check'], { cwd: repo.dir });
    expect(r.stdout).toContain('docs/adr/0003-session-cookies.md:3  warning  code-refs entry "src/session/cookies.ts" matches no file in the repository  path-glob-matches-nothing');
    // the placeholders, the address, the absolute and climbing paths are no entries at all
    expect(r.stdout).not.toMatch(/N\/A|etc\/hosts|shared\/schema|example\.org/);
    expect(r.stdout).toMatch(/0 errors, 1 warning\b/);
  });
});
