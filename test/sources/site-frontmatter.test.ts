import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/** A Java project's MADR folder that its just-the-docs site also publishes: each record's frontmatter places it in the site's menu. */
const REPO = {
  'docs/decisions/0002-use-slf4j-for-logging.md': '---\nparent: Decision Records\nnav_order: 2\n---\n# Use SLF4J together with log4j2 for logging\n\n## Context and Problem Statement\n\nWhich logging facade?\n\n## Decision Outcome\n\nChosen option: "SLF4J with Log4j2 binding", because it supports Java 9.\n',
  'docs/decisions/0045-use-input-flag.md': '---\nnav_order: 45\nparent: Decision Records\nstatus: "superseded by ADR-0046"\n---\n# Use --input for input files\n\n## Decision Outcome\n\nChosen option: "--input".\n',
  'docs/decisions/0046-positional-input.md': '---\nnav_order: 46\nparent: Decision Records\nstatus: accepted\n---\n# Allow a positional input file\n\n## Decision Outcome\n\nChosen option: "positional".\n',
  'src/main/java/org/example/Log.java': 'package org.example;\n\nimport org.slf4j.Logger;\n\npublic class Log {}\n',
};

describe('records a documentation site also publishes', () => {
  it('show leaves out the site menu keys (parent, nav_order) and keeps the decision\'s own; --json keeps every key', () => {
    const repo = makeRepo();
    repo.commit('import', REPO);
    const show = runCli(['show', 'ADR-0045', '--depth', 'meta'], { cwd: repo.dir });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).not.toMatch(/nav_order|parent:/);
    expect(show.stdout).toContain('status: superseded (written "superseded by ADR-0046")');
    const bare = runCli(['show', 'ADR-0002', '--depth', 'meta'], { cwd: repo.dir });
    expect(bare.stdout).toContain('(no metadata written in the record)');
    const json = runCli(['show', 'ADR-0045', '--json'], { cwd: repo.dir });
    expect((JSON.parse(json.stdout) as { frontmatter: Record<string, unknown> }).frontmatter).toMatchObject({ nav_order: '45', parent: 'Decision Records' });
  });

  it("show leaves out a documentation sync's keys (github_org, github_source_path…); --json keeps them", () => {
    const repo = makeRepo();
    repo.commit('import', {
      'docs/adr/0003-pin-base-images.md': '---\ntitle: "ADR 0003: Pin base images by digest"\ngithub_org: example\ngithub_repo: images\ngithub_source_path: docs/adr/0003-pin-base-images.md\n---\n\n# ADR 0003: Pin base images by digest\n\n## Status\n\nAccepted\n\n## Decision\n\nEvery Dockerfile names its base image by digest.\n',
    });
    const show = runCli(['show', 'ADR-0003', '--depth', 'meta'], { cwd: repo.dir });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).not.toMatch(/github_/);
    expect(show.stdout).toContain('status: accepted');
    const json = runCli(['show', 'ADR-0003', '--json'], { cwd: repo.dir });
    expect((JSON.parse(json.stdout) as { frontmatter: Record<string, unknown> }).frontmatter).toMatchObject({ github_org: 'example' });
  });

  it('new decision keeps the site keys of the folder\'s records, the menu order taking the new number', () => {
    const repo = makeRepo();
    repo.commit('import', REPO);
    const dry = runCli(['new', 'decision', '--title', 'Use Gradle version catalogs', '--date', '2026-11-28', '--dry-run', '--json'], { cwd: repo.dir });
    expect(dry.code, dry.stderr).toBe(0);
    const r = JSON.parse(dry.stdout) as { file: string; text: string };
    expect(r.file).toBe('docs/decisions/0047-use-gradle-version-catalogs.md');
    expect(r.text).toMatch(/^---\nnav_order: 47\nparent: Decision Records\nstatus: proposed\ndate: 2026-11-28\n---\n# Use Gradle version catalogs\n/);
  });
});
