import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/** A Go service whose records are an adr-tools folder nested under docs/architecture/, one with a status of its own words. */
const nygard = (n: number, title: string, status: string, decision: string) => `# ${n}. ${title}\n\nDate: 2023-02-21\n\n## Status\n\n${status}\n\n## Context\n\nThe embedding tool was archived.\n\n## Decision\n\n${decision}\n\n## Consequences\n\nBuilds change.\n`;

describe('first hour on a nested adr-tools folder, without init', () => {
  it("an unmapped status says where its mapping goes, and that init writes that file when there is none", () => {
    const repo = makeRepo({
      '.adr-dir': 'docs/architecture/decisions\n',
      'docs/architecture/decisions/0001-record-architecture-decisions.md': nygard(1, 'Record architecture decisions', 'Accepted', 'We record decisions.'),
      'docs/architecture/decisions/0002-embed-assets-with-go-embed.md': nygard(2, 'Embed assets with go embed', 'Parked', 'Use `go:embed` for the bundled templates.'),
      'cmd/tool/main.go': 'package main\n\nfunc main() {}\n',
    });
    repo.commit('records');
    const before = runCli(['check', '--json'], { cwd: repo.dir });
    expect(before.code).toBe(0);
    const find = (out: string) => (JSON.parse(out) as { findings: { rule: string; line: number; message: string }[] }).findings.find((f) => f.rule === 'status-unmapped');
    const unmapped = find(before.stdout);
    expect(unmapped?.line).toBe(7);
    expect(unmapped?.message).toContain('add it to .contextia/config.yaml (git ctx init writes that file) as status_map: { "parked": <proposed|accepted|deprecated|superseded|rejected> }');
    expect(runCli(['init'], { cwd: repo.dir }).code).toBe(0);
    const after = find(runCli(['check', '--json'], { cwd: repo.dir }).stdout);
    expect(after?.message).toContain('add it to .contextia/config.yaml as status_map: { "parked"');
  });

  it('supersede writes adr-tools\' own "Superseded by [link]" and "Supersedes [link]" lines, adds no frontmatter to either record, and is idempotent', () => {
    const repo = makeRepo({
      '.adr-dir': 'docs/architecture/decisions\n',
      'docs/architecture/decisions/0002-embed-with-packer.md': nygard(2, 'Embed assets with a packer', 'Accepted', 'Use the packer tool.'),
      'docs/architecture/decisions/0003-embed-assets-with-go-embed.md': nygard(3, 'Embed assets with go embed', 'Accepted', 'Use `go:embed` for the bundled templates.'),
    });
    repo.commit('records');
    const r = runCli(['supersede', '2', '--by', '3'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('ADR-0003 supersedes ADR-0002\nADR-0002: status superseded\n');
    const older = readFileSync(path.join(repo.dir, 'docs/architecture/decisions/0002-embed-with-packer.md'), 'utf8');
    expect(older).toBe(nygard(2, 'Embed assets with a packer', 'Superseded by [Embed assets with go embed](0003-embed-assets-with-go-embed.md)', 'Use the packer tool.'));
    const newer = readFileSync(path.join(repo.dir, 'docs/architecture/decisions/0003-embed-assets-with-go-embed.md'), 'utf8');
    // the newer record states it too, in its Status section, as adr-tools writes it
    expect(newer).toBe(nygard(3, 'Embed assets with go embed', 'Accepted\n\nSupersedes [Embed assets with a packer](0002-embed-with-packer.md)', 'Use `go:embed` for the bundled templates.'));
    const shown = JSON.parse(runCli(['show', '3', '--json'], { cwd: repo.dir }).stdout) as { relationsFromText?: Record<string, string[]>; relationsStatedByOthers?: unknown[] };
    expect(shown.relationsFromText).toEqual({ supersedes: ['ADR-0002'] });
    expect(shown.relationsStatedByOthers).toBeUndefined();
    expect((JSON.parse(runCli(['show', '2', '--json'], { cwd: repo.dir }).stdout) as { status: string }).status).toBe('superseded');
    const again = runCli(['supersede', '2', '--by', '3'], { cwd: repo.dir });
    expect(again.stdout).toContain('(already recorded)');
    expect(readFileSync(path.join(repo.dir, 'docs/architecture/decisions/0002-embed-with-packer.md'), 'utf8')).toBe(older);
    expect(readFileSync(path.join(repo.dir, 'docs/architecture/decisions/0003-embed-assets-with-go-embed.md'), 'utf8')).toBe(newer);
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
  });

  it('impact that reaches nothing says what would connect the record or the code', () => {
    const repo = makeRepo({
      'docs/adr/0001-record-architecture-decisions.md': nygard(1, 'Record architecture decisions', 'Accepted', 'We record decisions.'),
      'docs/adr/0002-embed-assets.md': nygard(2, 'Embed assets', 'Accepted', 'Templates are embedded by `cmd/tool/assets.go`.'),
      'cmd/tool/assets.go': 'package main\n\nfunc Assets() {}\n',
      'cmd/tool/main.go': 'package main\n\nfunc main() {}\n',
    });
    repo.commit('records');
    const record = runCli(['impact', 'ADR-0001'], { cwd: repo.dir });
    expect(record.code).toBe(0);
    expect(record.stdout).toContain('no records reached\n  it names no code (paths:, anchors, @decision/@spec annotations or code named in its text) and no record relies on it\n');
    const code = runCli(['impact', 'cmd/tool/main.go'], { cwd: repo.dir });
    expect(code.stdout).toContain('no record is declared on this code or on the code that uses it; `git ctx for cmd/tool/main.go` lists records related by words, mentions and nearness');
    // something reached: no such line
    expect(runCli(['impact', 'ADR-0002'], { cwd: repo.dir }).stdout).not.toContain('it names no code');
  });
});

