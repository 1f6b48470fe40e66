import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const dec = (id: string, title: string) => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n---\n# ${title}\n\nWe do it.\n`;

describe('git ctx list: a long id', () => {
  it('does not widen the table: written whole on its own line, its row below it in the columns', () => {
    const long = 'ADR-20200924-api-platform-resources-in-yaml-not-annotations';
    const repo = makeRepo({
      '.contextia/system/rationale/ADR-0001.md': dec('ADR-0001', 'Short one'),
      '.contextia/system/rationale/ADR-0002.md': dec('ADR-0002', 'Another'),
      '.contextia/system/rationale/long.md': dec(long, 'API Platform resources in YAML'),
    });
    repo.commit('init');
    const r = runCli(['list'], { cwd: repo.dir, env: { NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    // every row's type column starts at the same place, at most 24 + 2 characters in
    const typeAt = lines.filter((l) => / decision /.test(l)).map((l) => l.indexOf('decision'));
    expect(new Set(typeAt).size).toBe(1);
    expect(typeAt[0]).toBeLessThanOrEqual(26);
    const at = lines.indexOf(long);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toMatch(/^ {24} {2}decision +accepted +API Platform resources in YAML$/);
    expect(lines.find((l) => l.startsWith('ADR-0001'))).toMatch(/^ADR-0001 {16} {2}decision/);
  });

  it('fits the column to most ids when most are long, as a folder of dated records names them', () => {
    const ids = ['ADR-2022-02-03-integration-testing', 'ADR-2022-02-07-tracing', 'ADR-2022-03-01-serverless-transfers', 'ADR-2022-04-12-helm-chart-defaults', 'ADR-2023-01-09-a-much-longer-record-name-that-says-everything'];
    const repo = makeRepo(Object.fromEntries(ids.map((id, i) => [`.contextia/system/rationale/r${i}.md`, dec(id, `Record ${i}`)])));
    repo.commit('init');
    const r = runCli(['list'], { cwd: repo.dir, env: { NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    // four ids on their row; the outlier alone on its line, its row below it
    expect(lines).toHaveLength(6);
    expect(lines.find((l) => l.startsWith('ADR-2022-02-07-tracing'))).toMatch(/^ADR-2022-02-07-tracing {13} {2}decision/);
    expect(lines).toContain(ids[4]);
  });
});

