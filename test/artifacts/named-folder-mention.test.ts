import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * A record that names a folder by its name alone, as prose does (DEC-138): "an `incubator`
 * directory", "the folder `migrations`". Shaped like a library whose package-structure record
 * hosts early features in a folder below `src/`; the wording is ours.
 */
const adr = (n: number, title: string, decision: string) => `# ${n}. ${title}\n\nDate: 2026-01-0${n}\n\n## Status\n\nAccepted\n\n## Context\n\nWe needed a place for this.\n\n## Decision\n\n${decision}\n`;

function fixture(extra: Record<string, string> = {}) {
  const repo = makeRepo({
    'docs/adr/0001-incubating-features.md': adr(1, 'Incubating features', 'Unfinished constructs live in an `incubator` directory and are exported under their own entry point, so nobody depends on them by accident.'),
    'docs/adr/0002-schema-changes.md': adr(2, 'Schema changes', 'Every schema change is a numbered script in the folder `migrations`, applied in order at start-up.'),
    'docs/adr/0003-shared-helpers.md': adr(3, 'Shared helpers', 'Helpers shared by two packages move to a `helpers` folder of their own.'),
    'docs/adr/0004-scripts.md': adr(4, 'Scripts', 'Release steps are shell files in the `scripts` folder.'),
    'src/incubator/queue.ts': 'export const queue: string[] = [];\n',
    'src/incubator/index.ts': "export * from './queue';\n",
    'src/stable/index.ts': 'export const stable = true;\n',
    'db/migrations/001_init.sql': 'create table t (id int);\n',
    'packages/a/helpers/x.ts': 'export const x = 1;\n',
    'packages/b/helpers/y.ts': 'export const y = 1;\n',
    'scripts/release.sh': 'echo release\n',
    ...extra,
  });
  repo.commit('fixture');
  return repo;
}

/** What `for <file>` says a record mentions of the file ('' when it finds no mention). */
const mentionOf = (dir: string, file: string, id: string): string => {
  const out = runCli(['for', file, '--json', '--all'], { cwd: dir });
  expect(out.code).toBe(0);
  const j = JSON.parse(out.stdout);
  const hit = [...j.results, ...(j.weak ?? [])].find((r: { id: string }) => r.id === id);
  return hit?.why.find((w: { kind: string }) => w.kind === 'mention')?.text ?? '';
};

describe('a folder named by its name beside "directory" or "folder" (DEC-138)', () => {
  it('is a mention of the one folder of that name below the top level', () => {
    const repo = fixture();
    expect(mentionOf(repo.dir, 'src/incubator/queue.ts', 'ADR-0001')).toBe('mentions src/incubator (docs/adr/0001-incubating-features.md:15)');
    expect(mentionOf(repo.dir, 'db/migrations/001_init.sql', 'ADR-0002')).toBe('mentions db/migrations (docs/adr/0002-schema-changes.md:15)');
  });

  it('is no mention when several folders have the name, or the folder is at the top level', () => {
    const repo = fixture();
    expect(mentionOf(repo.dir, 'packages/a/helpers/x.ts', 'ADR-0003')).toBe('');
    expect(mentionOf(repo.dir, 'scripts/release.sh', 'ADR-0004')).toBe('');
  });

  it('makes the record an answer for a file in that folder, the first time and from the memo', () => {
    const repo = fixture();
    for (let run = 0; run < 2; run++) {
      const out = runCli(['for', 'src/incubator/queue.ts', '--json'], { cwd: repo.dir });
      expect(out.code).toBe(0);
      const hit = JSON.parse(out.stdout).results.find((r: { id: string }) => r.id === 'ADR-0001');
      expect(hit?.why.map((w: { kind: string }) => w.kind)).toContain('mention');
    }
    const other = JSON.parse(runCli(['for', 'src/stable/index.ts', '--json'], { cwd: repo.dir }).stdout);
    expect(other.results.map((r: { id: string }) => r.id)).not.toContain('ADR-0001');
  });
});
