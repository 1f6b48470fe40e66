import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/index.js';
import { connect } from '../mcp/helpers.js';
import { artifact, CASE_MS, cli, expectContained, hostileRepo } from './harness.js';

const CHAIN = 5_000;
// these cases build 5,000 files and commit them: on a loaded 2-core machine they take a minute
const id = (i: number) => `SPEC-C${String(i).padStart(5, '0')}`;

/** A 5,000-long requires chain (and, in the second case, a cycle closing it). */
function chainRepo(cycle: boolean) {
  const files: Record<string, string> = {};
  for (let i = 0; i < CHAIN; i++) {
    const next = i + 1 < CHAIN ? id(i + 1) : cycle ? id(0) : undefined;
    files[`.contextia/system/specs/${id(i)}.md`] = artifact(`id: ${id(i)}\ntype: spec\ntitle: Link ${i}\nstatus: active${next ? `\nrequires: [${next}]` : ''}`, `# Link ${i}\n\nPart ${i}.\n`);
  }
  const repo = hostileRepo(files);
  repo.commit('chain');
  return repo;
}

describe.each([
  { name: 'requires chain of 5,000', cycle: false },
  { name: 'requires cycle of 5,000', cycle: true },
])('bounded work: $name', ({ cycle }) => {
  it('CLI bundle assembles every link with a bounded chain, JSON and digest included', { timeout: CASE_MS * 3 }, async () => {
    const repo = chainRepo(cycle);
    const r = await expectContained(repo, () => cli([id(0), '--format', 'json', '--depth', 'meta'], repo.dir, {}, CASE_MS * 2));
    expect(r.code, r.stderr).toBe(0);
    const b = JSON.parse(r.stdout) as { entries: { id: string; chain: string[]; elided?: number; why: string }[]; header: { digest: string } };
    expect(b.entries).toHaveLength(CHAIN);
    const last = b.entries.find((e) => e.id === id(CHAIN - 1))!;
    expect(last.chain.length).toBeLessThanOrEqual(16);
    expect(last.chain[0]).toBe(id(0));
    expect(last.elided).toBe(CHAIN - 16);
    expect(last.why).toContain(`… ${CHAIN - 16} more …`);
    expect(b.header.digest).toMatch(/^sha256:/);
  });

  it('CLI check finishes (cycle reported when there is one) and the MCP server answers', { timeout: CASE_MS * 3 }, async () => {
    const repo = chainRepo(cycle);
    await expectContained(repo, async () => {
      const r = cli(['check', '--format', 'json'], repo.dir, {}, CASE_MS * 2);
      expect(r.stderr).not.toMatch(/rule failed|Maximum call stack/);
      const rules = (JSON.parse(r.stdout) as { findings: { rule: string }[] }).findings.map((f) => f.rule);
      expect(rules.includes('requires-cycle')).toBe(cycle);
      const c = await connect({ cwd: repo.dir });
      const got = await c.call('get_context', { ids: [id(CHAIN - 3)] });
      expect(got.isError ?? false).toBe(false);
      expect(got.text).toContain(id(CHAIN - 1));
    });
  });
});

describe('bounded work: a staged file over limits.max_file_bytes', () => {
  // the bound is configured small so that a file just over it proves the point without 200 MB
  const CONFIG = 'limits:\n  max_file_bytes: 4096\n';
  const SPEC = artifact('id: SPEC-BIG-001\ntype: spec\ntitle: Big\nstatus: active\npaths: [src/**]');
  const big = `// @spec SPEC-MISSING-001\n${'export const x = 1;\n'.repeat(400)}`;

  it('the hook skips it with a visible finding naming it, and does not read its annotations', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo({ '.contextia/config.yaml': CONFIG, '.contextia/system/specs/SPEC-BIG-001.md': SPEC, 'src/a.ts': '// @spec SPEC-BIG-001\nexport const a = 1;\n' });
    repo.commit('base');
    repo.write({ 'src/big.ts': big });
    repo.git('add', '-A');
    const r = await expectContained(repo, () => cli(['hook', 'pre-commit'], repo.dir));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/src\/big\.ts\s+warning\s+skipped: \d+ bytes, over the 4096-byte bound/);
    expect(r.stdout).not.toContain('SPEC-MISSING-001');
  });

  it('check and the PR analysis report it as skipped', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo({ '.contextia/config.yaml': CONFIG, '.contextia/system/specs/SPEC-BIG-001.md': SPEC, 'src/a.ts': 'export const a = 1;\n' });
    repo.commit('base');
    repo.git('checkout', '-q', '-b', 'pr');
    repo.write({ 'src/big.ts': big });
    repo.commit('big');
    await expectContained(repo, async () => {
      const r = cli(['check'], repo.dir);
      expect(r.stdout).toMatch(/src\/big\.ts\s+warning\s+skipped:.*code-file-skipped/);
      const pr = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'pr' });
      expect(JSON.stringify(pr)).toContain('src/big.ts');
    });
  });

  it('raising the bound scans the file (a skip is not remembered)', { timeout: CASE_MS }, async () => {
    const repo = hostileRepo({ '.contextia/config.yaml': CONFIG, '.contextia/system/specs/SPEC-BIG-001.md': SPEC, 'src/big.ts': big });
    repo.commit('base');
    expect(cli(['check'], repo.dir).stdout).toContain('code-file-skipped');
    repo.write({ '.contextia/config.yaml': 'limits:\n  max_file_bytes: 1000000\n' });
    const r = cli(['check'], repo.dir);
    expect(r.stdout).not.toContain('code-file-skipped');
    expect(r.stdout).toContain('SPEC-MISSING-001');
  });
});

/** A word of three syllables per number: distinct, stemmer-proof words for synthetic titles. */
const SYL = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'be', 'do'];
const word = (n: number) => `${SYL[n % 10]}${SYL[Math.floor(n / 10) % 10]}${SYL[Math.floor(n / 100) % 10]}r`;

describe('bounded work: a pull request adding records whose titles total 70 KB', () => {
  const ADDED = 1_500;
  it('git ctx pr answers inside 20 s and still pairs the two restatements', { timeout: CASE_MS * 2 }, async () => {
    const repo = hostileRepo({ [`.contextia/system/rationale/DEC-OK-001.md`]: artifact('id: DEC-OK-001\ntype: decision\ntitle: A sound decision\nstatus: accepted\npaths: [src/**]'), 'src/a.ts': 'export const a = 1;\n' });
    repo.commit('base');
    repo.git('checkout', '-q', '-b', 'pr');
    const files: Record<string, string> = { 'src/a.ts': 'export const a = 2;\n' };
    let titles = 0;
    for (let i = 0; i < ADDED; i++) {
      const title = Array.from({ length: 7 }, (_, k) => word((i * 7 + k * 131) % 1000)).join(' ');
      titles += title.length;
      const id = `DEC-T${String(i).padStart(4, '0')}`;
      files[`.contextia/system/rationale/${id}.md`] = artifact(`id: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted`, `# ${title}\n\n## Decision\n\n${title}.\n`);
    }
    const same = 'Payment requests carry idempotency keys kept in Redis for a day so a retry never charges twice';
    files['.contextia/system/rationale/DEC-DUP-001.md'] = artifact(`id: DEC-DUP-001\ntype: decision\ntitle: Idempotency keys in Redis\nstatus: accepted`, `# Idempotency keys in Redis\n\n## Decision\n\n${same}.\n`);
    files['.contextia/system/rationale/DEC-DUP-002.md'] = artifact(`id: DEC-DUP-002\ntype: decision\ntitle: Deduplicate payment requests with Redis idempotency keys\nstatus: accepted`, `# Deduplicate\n\n## Decision\n\n${same}, stored in Redis.\n`);
    expect(titles).toBeGreaterThan(70_000);
    repo.write(files);
    repo.commit('many records');
    const r = await expectContained(repo, () => cli(['pr', '--base', 'main', '--head', 'pr', '--format', 'json'], repo.dir));
    expect(r.code, r.stderr).toBe(0);
    expect(r.ms).toBeLessThan(20_000);
    const pr = JSON.parse(r.stdout) as { similarDecisions?: { id: string; similar: { id: string }[] }[] };
    const dup = new Map((pr.similarDecisions ?? []).map((d) => [d.id, d.similar.map((s) => s.id)]));
    expect(dup.get('DEC-DUP-001')).toContain('DEC-DUP-002');
    expect(dup.get('DEC-DUP-002')).toContain('DEC-DUP-001');
  });
});

describe('bounded work: a requires cycle of 2,000 records under a task', () => {
  it('the task bundle answers inside 20 s with every link', { timeout: CASE_MS * 2 }, async () => {
    const N = 2_000;
    const files: Record<string, string> = {
      '.contextia/tasks/TASK-001.md': artifact(`id: TASK-001\ntype: task\ntitle: Walk the cycle\nstatus: active\nlinks:\n  specs: [${id(0)}]`),
    };
    for (let i = 0; i < N; i++) files[`.contextia/system/specs/${id(i)}.md`] = artifact(`id: ${id(i)}\ntype: spec\ntitle: Link ${i}\nstatus: active\nrequires: [${id((i + 1) % N)}]`, `# Link ${i}\n\nPart ${i}, before ${id((i + 1) % N)}.\n`);
    const repo = hostileRepo(files);
    repo.commit('cycle');
    for (const args of [['TASK-001'], ['TASK-001', '--format', 'json'], [id(N / 2), '--budget', '4000']]) {
      const r = await expectContained(repo, () => cli(args, repo.dir));
      expect(r.code, r.stderr).toBe(0);
      expect(r.ms).toBeLessThan(20_000);
      if (args.includes('json')) expect((JSON.parse(r.stdout) as { entries: unknown[] }).entries).toHaveLength(N + 1);
    }
  });
});
