import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * A new user's first hour on adr/madr's own `docs/decisions/` (MADR 3: Jekyll frontmatter without a
 * status, records that show frontmatter examples in fenced blocks, one record "on hold"), without init.
 */
const jekyll = (order: number, extra = '') => `---\nparent: Decisions\nnav_order: ${order}\n${extra}---\n`;

function fixture() {
  const repo = makeRepo({
    'docs/decisions/0003-provide-own-madr-tools.md': `${jekyll(3, 'status: on hold\n')}# Write Own MADR Tooling\n\n## Context and Problem Statement\n\nDevelopers seem to like tooling to create ADRs.\n\n## Decision Outcome\n\nChosen option: "Write own tooling".\n`,
    'docs/decisions/0008-add-status-field.md': `${jekyll(8)}# Add Status Field\n\n## Context and Problem Statement\n\nADRs have a status. Should this be tracked?\n\n## Considered Options\n\n* Use YAML front matter\n* Use badge\n\n## Decision Outcome\n\nChosen option: "Use YAML front matter", because comes out best.\n\n## Pros and Cons of the Options\n\n### Use YAML front matter\n\nExample:\n\n\`\`\`markdown\n---\nparent: Decisions\nnav_order: 3\nstatus: on hold\n---\n# Write own MADR tooling\n\`\`\`\n`,
    'docs/decisions/0013-use-yaml-front-matter-for-meta-data.md': `${jekyll(13)}# Use YAML front matter for metadata\n\n## Context and Problem Statement\n\nMADR offers the fields "Status", "Decision Maker(s)", and "Date".\n\n## Decision Outcome\n\nChosen option: "Use YAML front matter".\n\n### Use YAML front matter\n\nExample:\n\n\`\`\`markdown\n---\nstatus: accepted\ndecision-makers:\ndate:\n---\n\`\`\`\n\n## More Information\n\n[ADR-0008](0008-add-status-field.md) reasons on adding metadata (such as status).\n`,
    'docs/decisions/adr-template.md': `---\nparent: Decisions\nnav_order: 100\ntitle: ADR Template\n---\n# {short title, representative of solved problem and found solution}\n\n## Context and Problem Statement\n\n{Describe the context}\n`,
    'docs/decisions/index.md': '---\nparent: Decisions\n---\n# Decisions\n\nThis lists the decisions.\n',
  });
  repo.commit('records');
  return repo;
}

describe("first hour on MADR's own decisions folder, without init", () => {
  it('reads no status from a fenced example, names the whole status a status_map entry needs, and the map warns of no unloaded file', () => {
    const repo = fixture();
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    const status = Object.fromEntries((JSON.parse(list.stdout) as { artifacts: { id: string; status: string | null }[] }).artifacts.map((a) => [a.id, a.status]));
    // 0008 and 0013 write no status of their own: their "status:" lines are examples in a ```markdown block
    expect(status).toEqual({ 'ADR-0003': 'on hold', 'ADR-0008': null, 'ADR-0013': null });
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.code).toBe(0);
    // one warning, on the record that is on hold, and the key a status_map entry needs is the whole status
    expect(check.stdout.match(/status-unmapped/g)).toHaveLength(1);
    expect(check.stdout).toContain('docs/decisions/0003-provide-own-madr-tools.md:4  warning  status "on hold" maps onto no decision status');
    expect(check.stdout).toContain('status_map: { "on hold": <');
    const map = runCli(['map', '-o', 'map.html'], { cwd: repo.dir });
    expect(map.code, map.stderr).toBe(0);
    expect(map.stderr).not.toContain('did not load');
    expect(map.stderr).toContain('map: 3 records');
  });

  it('a status_map entry keyed as check says maps the status', () => {
    const repo = fixture();
    repo.write({ '.contextia/config.yaml': 'sources:\n  - { dir: docs/decisions, format: adr, prefix: ADR-, type: decision }\nstatus_map:\n  on hold: proposed\n' });
    repo.commit('config');
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).not.toContain('status-unmapped');
    const list = JSON.parse(runCli(['list', '--json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string; status: string | null }[] };
    expect(list.artifacts.find((a) => a.id === 'ADR-0003')!.status).toBe('proposed');
  });

  it('show takes a record as people type it: number, id in any case, file name as ls shows it, path as a shell completes it', () => {
    const repo = fixture();
    for (const typed of ['8', '0008', 'adr-8', 'ADR8', '0008-add-status-field', '0008-add-status-field.md', 'docs/decisions/0008-add-status-field.md', './docs/decisions/0008-add-status-field.md']) {
      const r = runCli(['show', typed, '--json'], { cwd: repo.dir });
      expect(r.code, `${typed}: ${r.stderr}`).toBe(0);
      expect((JSON.parse(r.stdout) as { id: string }).id).toBe('ADR-0008');
    }
    const unknown = runCli(['show', '0042-nothing.md'], { cwd: repo.dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown artifact id: 0042-nothing.md');
  });

  it('a map warns of a record that did not load, once per file', () => {
    const repo = fixture();
    repo.write({ 'docs/decisions/0020-diagram.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0xff, 0xfe, 0, 1]) });
    repo.commit('broken');
    const map = runCli(['map', '-o', 'map.html'], { cwd: repo.dir });
    expect(map.code, map.stderr).toBe(0);
    expect(map.stderr).toContain('warning: 1 file did not load and is not on the map; git ctx check lists it');
  });
});
