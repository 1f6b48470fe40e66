import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { connect } from '../mcp/helpers.js';

/**
 * A new user's first hour on a monorepo whose only records are a MADR 4 folder
 * (`docs/decisions/`, YAML frontmatter, "Decision Outcome"), without `git ctx init`.
 */
const madr = (status: string, title: string, context: string, outcome: string) =>
  `---\nstatus: ${status}\ndate: "2026-03-13"\ndecision-makers:\n  - "@acme/archive-team"\nconsulted: []\ninformed: []\n---\n\n# ${title}\n\n## Context and Problem Statement\n\n${context}\n\n## Considered Options\n\n* Keep it\n* Change it\n\n## Decision Outcome\n\n${outcome}\n`;

function fixture(extra: Record<string, string | Buffer> = {}) {
  const repo = makeRepo({
    'docs/decisions/0000-use-madr.md': madr('accepted', 'Use Markdown Architectural Decision Records', 'We want to record decisions.', 'Chosen option: MADR 4.0.0.'),
    'docs/decisions/0002-group-dependency-updates.md': madr('accepted', 'Group dependency updates per ecosystem', 'One pull request per folder floods reviewers.', 'Chosen option: one group per ecosystem in `.github/dependabot.yaml`.'),
    'docs/decisions/0005-exploration-notes.md': madr(
      'proposed',
      'Explore ideas in notes before records',
      'Two record pull requests ([#2263 ADR-0001][pr-2263], [#2320 ADR-0004][pr-2320]) have been open for months.\n\n[pr-2263]: https://example.org/pull/2263\n[pr-2320]: https://example.org/pull/2320',
      'Chosen option: a notes folder upstream of `docs/decisions/`.',
    ),
    '.github/dependabot.yaml': 'version: 2\nupdates: []\n',
    'services/inbox/proxy.go': 'package main\n\n// ServeHTTP forwards uploads.\nfunc ServeHTTP() {}\n',
    ...extra,
  });
  repo.commit('records');
  return repo;
}

describe('first hour on a MADR folder, without init', () => {
  it('show names what kept a record from loading: frontmatter that is no YAML, a binary file, a broken contextia record', () => {
    const repo = fixture({
      'docs/decisions/0006-use-nats.md': '---\nstatus: accepted\ndate: "2026-05-01\ndecision-makers: [a, b\n---\n\n# Use NATS for events\n\n## Decision Outcome\n\nChosen option: NATS.\n',
      'docs/decisions/0007-diagram.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0xff, 0xfe, 0, 1]),
      '.contextia/config.yaml': 'sources:\n  - { dir: docs/decisions, format: adr, prefix: ADR-, type: decision }\n',
      '.contextia/system/rationale/DEC-007.md': '---\nid: DEC-007\ntype: decision\ntitle: [unclosed\n---\n\n# Broken\n',
    });
    const six = runCli(['show', '6'], { cwd: repo.dir });
    expect(six.code).toBe(0);
    expect(six.stdout).not.toContain('no metadata written');
    expect(six.stdout).toMatch(/problem: docs\/decisions\/0006-use-nats\.md:4: invalid YAML in the record's frontmatter/);
    const json = JSON.parse(runCli(['show', '6', '--json'], { cwd: repo.dir }).stdout) as { problems?: { line: number; rule: string }[] };
    expect(json.problems).toEqual([expect.objectContaining({ line: 4, rule: 'frontmatter-malformed' })]);
    // a file that gave no record: its problem, not "unknown id"
    const seven = runCli(['show', '7'], { cwd: repo.dir });
    expect(seven.code).toBe(2);
    expect(seven.stderr).toContain('7 is not loaded: docs/decisions/0007-diagram.md: binary file');
    const dec = runCli(['show', 'DEC-007'], { cwd: repo.dir });
    expect(dec.code).toBe(2);
    expect(dec.stderr).toMatch(/DEC-007 is not loaded: \.contextia\/system\/rationale\/DEC-007\.md:\d+: invalid YAML/);
    expect(runCli(['show', '9'], { cwd: repo.dir }).stderr).toContain('unknown artifact id: 9');
  });

  it('show and a bundle give a MADR record its metadata once, not again as the frontmatter at the top of its text', () => {
    const repo = fixture();
    const full = runCli(['show', '2'], { cwd: repo.dir });
    expect(full.code).toBe(0);
    expect(full.stdout.match(/decision-makers/g)).toHaveLength(1);
    expect(full.stdout).not.toMatch(/^---$/m);
    expect(full.stdout).toContain('# Group dependency updates per ecosystem\n\n## Context and Problem Statement');
    const bundle = runCli(['context', 'ADR-0002', '--format', 'json'], { cwd: repo.dir });
    const parts = (JSON.parse(bundle.stdout) as { entries: { id: string; body?: string }[] }).entries;
    const body = parts.find((x) => x.id === 'ADR-0002')?.body ?? '';
    expect(body).toContain('Chosen option: one group per ecosystem');
    expect(body).not.toContain('decision-makers');
  });

  it('an agent reading a file that only related records concern is not told they govern it; a declared record is', () => {
    const repo = fixture();
    const read = (file: string) => {
      const out = runCli(['hook', 'agent-read'], { cwd: repo.dir, input: JSON.stringify({ session_id: `s-${file}`, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(repo.dir, file) }, cwd: repo.dir }) });
      expect(out.code).toBe(0);
      return (JSON.parse(out.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    };
    const related = read('.github/dependabot.yaml');
    expect(related).toMatch(/^# Records related to \.github\/dependabot\.yaml \(none declared\)\n/);
    expect(related).toContain('## ADR-0002 — Group dependency updates per ecosystem (decision, accepted; related)');
    repo.commit('a declared record', { '.contextia/config.yaml': 'sources:\n  - { dir: docs/decisions, format: adr, prefix: ADR-, type: decision }\n', '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: Updates are grouped\nstatus: accepted\npaths: [.github/**]\n---\n\n# Updates are grouped\n' });
    expect(read('.github/dependabot.yaml')).toMatch(/^# Records governing \.github\/dependabot\.yaml\n/);
  });

  it('rules export leaves proposals out of the rule files agents follow, says so, and takes one in once confirmed', () => {
    const repo = fixture();
    const first = runCli(['rules', 'export'], { cwd: repo.dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('left out, still proposals: ADR-0005 (git ctx confirm <id> accepts one)');
    const agents = readFileSync(path.join(repo.dir, 'AGENTS.md'), 'utf8');
    expect(agents).toContain('### ADR-0002: Group dependency updates per ecosystem');
    expect(agents).not.toContain('ADR-0005');
    const json = JSON.parse(runCli(['rules', 'export', '--dry-run', '--json'], { cwd: repo.dir }).stdout) as { records: string[]; pending: string[] };
    expect(json.pending).toEqual(['ADR-0005']);
    expect(json.records).not.toContain('ADR-0005');
    expect(runCli(['confirm', 'ADR-0005'], { cwd: repo.dir }).code).toBe(0);
    expect(runCli(['rules', 'export'], { cwd: repo.dir }).stdout).not.toContain('still proposals');
    expect(readFileSync(path.join(repo.dir, 'AGENTS.md'), 'utf8')).toContain('### ADR-0005: Explore ideas in notes before records');
  });

  it('MCP: an unknown id sends the agent to the index, not to a shell command; a number finds the MADR record', async () => {
    const repo = fixture();
    const c = await connect({ cwd: repo.dir });
    const miss = await c.call('read_artifact', { id: 'TASK-LOGIN-77' });
    expect(miss.isError).toBe(true);
    expect(miss.text).toContain('unknown artifact id: TASK-LOGIN-77');
    expect(miss.text).toContain('hint: call get_context without ids for the index of ids');
    expect(miss.text).not.toContain('git ctx list');
    const hit = await c.call('read_artifact', { id: '2' });
    expect(hit.isError).toBeFalsy();
    expect(hit.text.match(/decision-makers/g)).toHaveLength(1);
  });
});

