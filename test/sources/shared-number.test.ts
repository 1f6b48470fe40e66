import { describe, expect, it } from 'vitest';
import { requireArtifact } from '../../src/artifacts/lookup.js';
import { loadSet as load } from '../helpers/artifact-set.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/** Two files numbered 0021 in one folder (parallel branches merged): the second reads as ADR-0021-use-kafka. */
function fixture() {
  const repo = makeRepo({
    'docs/adr/0020-use-rest.md': '# 20. Use REST\n\n## Status\n\nAccepted\n\n## Decision\n\nREST.\n',
    'docs/adr/0021-use-postgres.md': '# 21. Use Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres.\n',
    'docs/adr/0021-use-kafka.md': '# 21. Use Kafka\n\n## Status\n\nAccepted\n\n## Decision\n\nKafka.\n',
  });
  repo.commit('two records numbered 21');
  return repo;
}

describe('a typed number several records share', () => {
  it('show 21 / 0021 / adr-21 says the number is ambiguous and lists each record (id, title, path), exit 2', () => {
    const repo = fixture();
    for (const typed of ['21', '0021', 'adr-21', 'ADR 21']) {
      const r = runCli(['show', typed], { cwd: repo.dir });
      expect(r.code, typed).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `${typed} is ambiguous: its number is shared by 2 records: ADR-0021 "Use Kafka" (docs/adr/0021-use-kafka.md), ADR-0021-use-postgres "Use Postgres" (docs/adr/0021-use-postgres.md)`,
      );
      expect(r.stderr).toContain('hint: pass one of these ids');
    }
  });

  it('each record is still found by its own id, and a number no other record has by the number', async () => {
    const repo = fixture();
    const set = await load(repo.dir);
    expect(requireArtifact(set, 'ADR-0021').file).toBe('docs/adr/0021-use-kafka.md');
    expect(requireArtifact(set, 'ADR-0021-use-postgres').file).toBe('docs/adr/0021-use-postgres.md');
    expect(requireArtifact(set, '20').id).toBe('ADR-0020');
    expect(() => requireArtifact(set, '21')).toThrow(/21 is ambiguous/);
    expect(runCli(['show', 'ADR-0021-use-postgres'], { cwd: repo.dir }).code).toBe(0);
  });
});
