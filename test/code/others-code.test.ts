import { describe, expect, it } from 'vitest';
import { openCodeNeighbours } from '../../src/code/graph/index.js';
import { othersCodeOf } from '../../src/code/others-code.js';
import { sampleCodePaths } from '../../src/retrieve/code-words.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const goFile = (pkg: string, fn: string, body = 'return nil') => `package ${pkg}\n\nfunc ${fn}() error {\n\t${body}\n}\n`;

/**
 * A Go service with its dependencies vendored the Go way (vendor/), a folder the team marks
 * vendored in .gitattributes, generated code marked linguist-generated, and a fork the team
 * owns inside vendor/ that `linguist-vendored=false` brings back.
 */
function vendoringRepo() {
  const repo = makeRepo({
    'go.mod': 'module example.com/payments\n\ngo 1.22\n',
    'cmd/server/main.go': 'package main\n\nimport "example.com/payments/refund"\n\nfunc main() {\n\trefund.Issue()\n}\n',
    'refund/refund.go': goFile('refund', 'Issue', 'return idempotent()'),
    'refund/key.go': goFile('refund', 'idempotent'),
    'vendor/github.com/acme/retry/retry.go': goFile('retry', 'Do'),
    'vendor/github.com/acme/retry/backoff.go': goFile('retry', 'Backoff'),
    'vendor/github.com/ourteam/ledger/ledger.go': goFile('ledger', 'Post'),
    'deps/yaml/yaml.go': goFile('yaml', 'Parse'),
    'api/gen/api.pb.go': goFile('gen', 'Marshal'),
    'Godeps/_workspace/src/github.com/old/dep/dep.go': goFile('dep', 'Old'),
    '.gitattributes': 'deps/** linguist-vendored\napi/gen/** linguist-generated=true\nvendor/github.com/ourteam/** linguist-vendored=false\n',
    '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: Retries go through the vendored retry library with jittered backoff\nstatus: accepted\npaths: [vendor/github.com/acme/retry/**]\n---\n\n# Retries go through the vendored retry library\n\nWe call retry.Do with jittered backoff for every outbound payment call.\n',
  });
  repo.commit('vendor dependencies');
  repo.commit('refund key', { 'refund/key.go': goFile('refund', 'idempotent', 'return keyOf()') });
  return repo;
}

const TEAM = ['cmd/server/main.go', 'refund/key.go', 'refund/refund.go', 'vendor/github.com/ourteam/ledger/ledger.go'];

describe("other people's code (vendored, generated) in the code analyses", () => {
  it('leaves vendor folders and attribute-marked paths out of the code graph; linguist-vendored=false brings a path back', async () => {
    const repo = vendoringRepo();
    const snap = await openSnapshot({ cwd: repo.dir });
    try {
      const g = await openCodeNeighbours(snap, { cache: false });
      expect((await g.files()).sort()).toEqual(TEAM);
      expect(g.stats.files).toBe(TEAM.length);
      const others = await othersCodeOf(snap);
      expect(others('vendor/github.com/acme/retry/retry.go')).toBe(true);
      expect(others('deps/yaml/yaml.go')).toBe(true);
      expect(others('api/gen/api.pb.go')).toBe(true);
      expect(others('Godeps/_workspace/src/github.com/old/dep/dep.go')).toBe(true);
      expect(others('vendor/github.com/ourteam/ledger/ledger.go')).toBe(false);
      expect(others('refund/refund.go')).toBe(false);
    } finally {
      snap.close();
    }
  });

  it('leaves them out of the code sampled for code words and the place background', async () => {
    const repo = vendoringRepo();
    const snap = await openSnapshot({ cwd: repo.dir });
    try {
      expect((await sampleCodePaths(snap, 100, 1))?.sort()).toEqual(TEAM);
    } finally {
      snap.close();
    }
  });

  it('still answers a direct question about a vendored file, and the graph stays without it', () => {
    const repo = vendoringRepo();
    const r = runCli(['for', 'vendor/github.com/acme/retry/retry.go', '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('DEC-001');
    const t = runCli(['trace', 'vendor/github.com/acme/retry/retry.go', '--format', 'json'], { cwd: repo.dir });
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('DEC-001');
    const s = runCli(['for', 'vendor/github.com/acme/retry/retry.go#Do', '--format', 'json'], { cwd: repo.dir });
    expect(s.code).toBe(0);
    expect(s.stdout).toContain('DEC-001');
    // the call graph says why it has nothing on a vendored file, and how to bring it back
    const g = runCli(['graph', 'vendor/github.com/acme/retry/retry.go#Do'], { cwd: repo.dir });
    expect(g.code).not.toBe(0);
    expect(g.stderr).toMatch(/vendored or generated code.*linguist-vendored=false/);
    expect(runCli(['graph', 'vendor/github.com/ourteam/ledger/ledger.go#Post', '--format', 'json'], { cwd: repo.dir }).code).toBe(0);
  });
});
