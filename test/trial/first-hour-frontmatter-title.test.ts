import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * bitwarden/contributing-docs keeps `docs/architecture/adr/NNNN-….md` with Docusaurus frontmatter;
 * two records write their number into the frontmatter title ("title: 0011 - Angular folder structure"),
 * which was the title as written while "# 0004 - Refactor State Service" lost its number.
 */
const rec = (fm: string, heading: string) => `---\n${fm}adr: "x"\nstatus: Accepted\ndate: 2022-07-25\ntags: [clients, angular]\n---\n\n# ${heading}\n\n<AdrTable frontMatter={frontMatter}></AdrTable>\n\n## Context and problem statement\n\nThe clients grew.\n\n## Decision outcome\n\nChosen option: the one.\n`;

describe('a frontmatter title led by the record number', () => {
  it("loses the record's own number as a heading does, and keeps any other number", () => {
    const repo = makeRepo({
      'docs/architecture/adr/0004-refactor-state-service.md': rec('', '0004 - Refactor State Service'),
      'docs/architecture/adr/0011-angular-folder-structure.md': rec('title: 0011 - Angular folder structure\n', '0011 - Scalable Angular Clients folder structure'),
      'docs/architecture/adr/0012-three-environments.md': rec('title: 3 environments for every client\n', 'Three environments'),
      'docs/architecture/adr/0013-adr-13.md': rec('title: ADR-13 Use pnpm\n', 'Use pnpm'),
    });
    repo.commit('records');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    const titles = Object.fromEntries((JSON.parse(list.stdout) as { artifacts: { id: string; title: string }[] }).artifacts.map((a) => [a.id, a.title]));
    expect(titles).toEqual({
      'ADR-0004': 'Refactor State Service',
      'ADR-0011': 'Angular folder structure',
      'ADR-0012': '3 environments for every client',
      'ADR-0013': 'Use pnpm',
    });
  });

  it('a new record numbers its title as the newest record does: "# 0034 - Title"', () => {
    const repo = makeRepo({
      'docs/architecture/adr/0032-break-up-core.md': rec('', '0032 - Break up the Core project'),
      'docs/architecture/adr/0033-adopt-mermaid.md': rec('', '0033 - Adopt Mermaid diagram standard'),
    });
    repo.commit('records');
    const made = runCli(['new', 'decision', 'Adopt Rust for the SDK', '--dry-run'], { cwd: repo.dir });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout + made.stderr).toContain('would create ADR-0034 as docs/architecture/adr/0034-adopt-rust-for-the-sdk.md');
    expect(made.stdout).toMatch(/^# 0034 - Adopt Rust for the SDK$/m);
  });

  it("a new record carries the folder's frontmatter keys, its line under every title and its status casing (DEC-107)", () => {
    const own = (n: string, heading: string, extra = '') => `---\nadr: "${n}"\nstatus: Accepted\ndate: 2025-03-0${n.slice(-1)}\ntags: [server, clients]\ndeciders: the platform team\n---\n\n# ${n} - ${heading}\n\n<SiteTable meta={meta}></SiteTable>\n${extra}\n## Context and problem statement\n\nThe clients grew.\n\n## Decision outcome\n\nChosen option: the one.\n`;
    const repo = makeRepo({
      'docs/architecture/adr/0031-split-the-api.md': own('0031', 'Split the API'),
      'docs/architecture/adr/0032-break-up-core.md': own('0032', 'Break up the Core project'),
      // the newest record adds a note of its own under the title: not the folder's
      'docs/architecture/adr/0033-adopt-mermaid.md': own('0033', 'Adopt Mermaid diagram standard', '\n> This replaces the wiki page on diagrams.\n'),
    });
    repo.commit('records');
    const made = runCli(['new', 'decision', 'Adopt Rust for the SDK', '--dry-run'], { cwd: repo.dir });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^---\nadr: "0034"\nstatus: Proposed\ndate: \d{4}-\d\d-\d\d\ntags: \[\]\n---\n\n# 0034 - Adopt Rust for the SDK\n\n<SiteTable meta=\{meta\}><\/SiteTable>\n\n## Context and problem statement\n/m);
    // a value that belongs to one record (who decided) is not copied; the newest record's own note is not either
    expect(made.stdout).not.toContain('deciders');
    expect(made.stdout).not.toContain('wiki page');
    // written for real, the record reads back with its number and status
    const wrote = runCli(['new', 'decision', 'Adopt Rust for the SDK'], { cwd: repo.dir });
    expect(wrote.code, wrote.stderr).toBe(0);
    const show = runCli(['show', 'ADR-0034', '--json'], { cwd: repo.dir });
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ title: 'Adopt Rust for the SDK', status: 'proposed' });
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });
});
