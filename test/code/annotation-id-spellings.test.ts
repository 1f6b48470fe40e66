import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// DEC-093: a team names its records its own way in code — `@adr 5`, `@adr ADR-5`,
// `@decision 0005-use-coroutines`, `@adr adr-0005` — for the record whose id git-ctx reads
// from its file name, ADR-0005. Each names that record, as the same spelling does on the
// command line (`git ctx show 5`); a number no record has is still reported.
const record = (n: string, title: string) => `# ${title}\n\n## Status\n\n- **Accepted**\n\n## Context\n\nWhy ${title.toLowerCase()}.\n\n## Decision\n\n${title}.\n`;

describe('annotation ids spelt as the team spells them', () => {
  it('resolve to the record in trace, for and check; an id naming no record is still an error', () => {
    const repo = makeRepo({
      'docs/adr/0001-switch-to-kotlin.md': record('0001', 'Switch to Kotlin'),
      'docs/adr/0005-use-coroutines.md': record('0005', 'Use coroutines for background work'),
      'docs/adr/0012-central-project-configuration.md': record('0012', 'Central project configuration'),
      'core/sync/src/main/kotlin/Sync.kt': 'package net.example.sync\n\n// @adr 5\nclass Sync {\n  suspend fun run() {}\n}\n',
      'core/mail/src/main/kotlin/Fetch.kt': 'package net.example.mail\n\n// @decision ADR-5\nclass Fetch\n',
      'core/mail/src/main/kotlin/Send.kt': 'package net.example.mail\n\n// @adr 0005-use-coroutines\nclass Send\n',
      'core/mail/src/main/kotlin/Store.kt': 'package net.example.mail\n\n// @adr adr-0012\nclass Store\n',
    });
    repo.commit('records and code');
    for (const [file, id] of [
      ['core/sync/src/main/kotlin/Sync.kt', 'ADR-0005'],
      ['core/mail/src/main/kotlin/Fetch.kt', 'ADR-0005'],
      ['core/mail/src/main/kotlin/Send.kt', 'ADR-0005'],
      ['core/mail/src/main/kotlin/Store.kt', 'ADR-0012'],
    ] as const) {
      const t = runCli(['trace', file, '--format', 'json'], { cwd: repo.dir });
      expect(t.code, t.stderr).toBe(0);
      expect(JSON.stringify(JSON.parse(t.stdout))).toContain(`"${id}"`);
      const f = runCli(['for', file, '--format', 'json'], { cwd: repo.dir });
      expect(f.code, f.stderr).toBe(0);
      expect((JSON.parse(f.stdout) as { results: { id: string }[] }).results[0]!.id).toBe(id);
    }
    const check = runCli(['check', '--json'], { cwd: repo.dir });
    const findings = (JSON.parse(check.stdout) as { findings: { rule: string }[] }).findings;
    expect(findings.filter((f) => f.rule === 'annotation-unknown-id')).toEqual([]);

    repo.commit('an id no record has', { 'core/mail/src/main/kotlin/Draft.kt': 'package net.example.mail\n\n// @adr 99\nclass Draft\n' });
    const bad = runCli(['check', '--json'], { cwd: repo.dir });
    const unknown = (JSON.parse(bad.stdout) as { findings: { rule: string; message: string }[] }).findings.filter((f) => f.rule === 'annotation-unknown-id');
    expect(unknown.map((f) => f.message)).toEqual(['@adr 99 names no artifact']);
  });

  it('resolve to the record in impact and the code graph, also when the record comes after the code (edges kept per file)', () => {
    const repo = makeRepo({
      'docs/adr/0001-switch-to-kotlin.md': record('0001', 'Switch to Kotlin'),
      'docs/adr/0005-use-coroutines.md': record('0005', 'Use coroutines for background work'),
      'app/sync.py': 'from app.worker import run_later\n\n\n# @adr 5\ndef sync_all():\n    run_later()\n',
      'app/worker.py': '# @adr 7\ndef run_later():\n    return 1\n',
      'src/queue.ts': '/** @decision ADR-5 */\nexport function enqueue(x: number): number {\n  return x + 1;\n}\n',
      'src/main.ts': "import { enqueue } from './queue';\n\nexport function start(): number {\n  return enqueue(1);\n}\n",
    });
    repo.commit('records and code');
    const impact = (target: string) => {
      const r = runCli(['impact', target, '--json'], { cwd: repo.dir });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { artifacts: { node: { id: string } }[]; code: { node: { id: string } }[] };
    };
    // reverse, from the code: the record `@adr 5` names
    expect(impact('app/sync.py').artifacts.map((a) => a.node.id)).toContain('ADR-0005');
    expect(impact('src/queue.ts#enqueue').artifacts.map((a) => a.node.id)).toContain('ADR-0005');
    // forward, from the record: the code annotated with its number
    const forward = impact('ADR-0005').code.map((c) => c.node.id);
    expect(forward).toEqual(expect.arrayContaining(['app/sync.py', 'src/queue.ts#enqueue']));
    // the target typed as people type ids, as show takes it
    for (const typed of ['5', 'adr-5', '0005-use-coroutines']) expect(impact(typed).code.map((c) => c.node.id)).toEqual(forward);
    const none = runCli(['impact', '99', '--json'], { cwd: repo.dir });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('no artifact 99');
    // the code graph names the record on each node
    const graph = (place: string) => {
      const r = runCli(['graph', place, '--json'], { cwd: repo.dir });
      expect(r.code, r.stderr).toBe(0);
      return new Map((JSON.parse(r.stdout) as { nodes: { id: string; governedBy: string[] }[] }).nodes.map((n) => [n.id, n.governedBy]));
    };
    expect(graph('app/sync.py#sync_all').get('app/sync.py#sync_all')).toEqual(['ADR-0005']);
    expect(graph('src/main.ts#start').get('src/queue.ts#enqueue')).toEqual(['ADR-0005']);
    // `@adr 7` names no record yet; once 0007 is written the same code (its edges unchanged) names it
    expect(impact('app/worker.py').artifacts.map((a) => a.node.id)).not.toContain('ADR-0007');
    expect(graph('app/sync.py#sync_all').get('app/worker.py#run_later')).toEqual(['7']);
    repo.commit('record 7', { 'docs/adr/0007-run-work-later.md': record('0007', 'Run work later') });
    expect(impact('app/worker.py').artifacts.map((a) => a.node.id)).toContain('ADR-0007');
    expect(impact('ADR-0007').code.map((c) => c.node.id)).toContain('app/worker.py');
    expect(graph('app/sync.py#sync_all').get('app/worker.py#run_later')).toEqual(['ADR-0007']);
  });
});
