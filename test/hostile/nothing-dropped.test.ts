import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/index.js';
import { connect } from '../mcp/helpers.js';
import { artifact, CASE_MS, cli, expectContained, hostileRepo, OK_DEC } from './harness.js';

const BAD = '.contextia/system/rationale/DEC-BAD-001.md';

const IDS: { name: string; yaml: string }[] = [
  { name: 'id as a flow list', yaml: 'id: [DEC-A-001, DEC-B-001]' },
  { name: 'id as a block list', yaml: 'id:\n  - DEC-A-001' },
  { name: 'id as a mapping', yaml: 'id: {name: DEC-A-001}' },
  { name: 'id as a nested mapping', yaml: 'id:\n  x:\n    y: DEC-A-001' },
];

describe.each(IDS)('nothing dropped silently: $name', ({ yaml }) => {
  const text = artifact(`${yaml}\ntype: decision\ntitle: Shape`);
  it('check, the hook, the MCP server and the PR analysis report the file', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo({ '.contextia/system/rationale/DEC-OK-001.md': OK_DEC });
    repo.commit('base');
    repo.git('checkout', '-q', '-b', 'pr');
    repo.write({ [BAD]: text });
    await expectContained(repo, async () => {
      const r = cli(['check'], repo.dir);
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).toMatch(new RegExp(`${BAD.replace(/\./g, '\\.')}:2\\s+error\\s+id must be a string.*invalid-id`));
      repo.git('add', '-A');
      const hook = cli(['hook', 'pre-commit'], repo.dir);
      expect(hook.code).toBe(1);
      expect(hook.stdout).toContain(BAD);
      const c = await connect({ cwd: repo.dir });
      expect((await c.call('check')).text).toContain(BAD);
      repo.commit('bad id');
      const pr = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'pr' });
      expect(JSON.stringify(pr)).toContain(BAD);
    });
  });
});

describe('nothing dropped silently: a source file too large to parse', () => {
  const files = {
    '.contextia/config.yaml': 'limits:\n  max_file_bytes: 2048\n',
    '.contextia/system/specs/SPEC-BIG-001.md': artifact('id: SPEC-BIG-001\ntype: spec\ntitle: Big\nstatus: active\nanchors: ["src/big.ts#Big"]'),
    'src/big.ts': `/** @spec SPEC-BIG-001 */\nexport class Big {\n${'  m(): number { return 1; }\n'.repeat(200)}}\n`,
  };
  it('trace and graph say the file was not parsed instead of "no symbol"; check lists it', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo(files);
    repo.commit('base');
    await expectContained(repo, async () => {
      for (const args of [['trace', 'src/big.ts#Big'], ['graph', 'src/big.ts#Big']]) {
        const r = cli(args, repo.dir);
        expect(r.code, r.stdout).toBe(2);
        expect(r.stderr).toMatch(/src\/big\.ts was not parsed \(\d+ bytes, over the 2048-byte bound/);
        expect(r.stderr).not.toMatch(/no symbol/);
      }
      // the whole file: trace answers, and says it was not parsed (never a bare "nothing governs")
      const whole = cli(['trace', 'src/big.ts'], repo.dir);
      expect(whole.code, whole.stderr).toBe(0);
      expect(whole.stdout).toMatch(/not parsed: \d+ bytes, over the 2048-byte bound/);
      const json = cli(['trace', 'src/big.ts', '--json'], repo.dir);
      expect((JSON.parse(json.stdout) as { skipped?: string }).skipped).toMatch(/over the 2048-byte bound/);
      const c = await connect({ cwd: repo.dir });
      expect((await c.call('trace', { place: 'src/big.ts' })).text).toMatch(/Not parsed: \d+ bytes/);
      const check = cli(['check'], repo.dir);
      expect(check.stdout).toMatch(/src\/big\.ts\s+warning\s+skipped:.*code-file-skipped/);
    });
  });
});
