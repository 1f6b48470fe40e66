import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { stripNumber } from '../../src/artifacts/sources/adr-title.js';
import { withFolderMark } from '../../src/artifacts/sources/status-language.js';

// it-timo/goboot (the fourth retrieval dev set, DEC-078) heads every record "# 📄 ADR-NNN: Title"
// with an emoji status; the icon kept the number in the title ("📄 ADR-007: Centralized …").
describe('an ADR title headed by an icon', () => {
  it('is read without the icon and the number; a title that only starts with an icon and has no number keeps its words', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'doc/adr/adr-007-service-name-registry-in-types.md': '# 📄 ADR-007: Centralized Service Name Registry in `types/names.go`\n\n**Tags:** `constants`\n\n---\n\n## Status\n\n✅ Accepted\n\n---\n\n## Decision\n\nDefine all service names as constants.\n',
      'doc/adr/adr-008-rockets.md': '# 🚀 Launch with rockets\n\n## Status\n\nAccepted\n',
      'doc/adr/adr-009-plain.md': '# ADR-009: Plain title\n\n## Status\n\nAccepted\n',
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      expect(set.byId.get('ADR-007')!.title).toBe('Centralized Service Name Registry in types/names.go');
      expect(set.byId.get('ADR-007')!.status).toBe('accepted');
      expect(set.byId.get('ADR-008')!.title).toBe('🚀 Launch with rockets');
      expect(set.byId.get('ADR-009')!.title).toBe('Plain title');
    } finally {
      snapshot.close();
    }
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { artifacts: { id: string; title: string }[] }).artifacts.find((a) => a.id === 'ADR-007')?.title).toBe('Centralized Service Name Registry in types/names.go');
  });

  it("an icon before a title's number is any mark a status wears before its word (one definition of a mark)", () => {
    for (const mark of ['\u{1F4C4}', '\u2705', '\u{1F914}', '\u231B\uFE0F', '\u{1F468}\u200D\u{1F4BB}', '\u2605']) {
      expect(stripNumber(`${mark} ADR-007: Use queues`)).toBe('Use queues');
      expect(withFolderMark('Accepted', [`${mark} Accepted`, `${mark} Accepted`])).toBe(`${mark} Accepted`);
    }
    // a letter, a digit or punctuation is no mark
    expect(stripNumber('A 7: Use queues')).toBe('A 7: Use queues');
    expect(withFolderMark('Accepted', ['- Accepted', '- Accepted'])).toBe('Accepted');
  });
});
