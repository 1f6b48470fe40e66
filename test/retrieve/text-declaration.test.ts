import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { declarationInText } from '../../src/retrieve/text-declaration.js';
import { makeRepo } from '../helpers/git-repo.js';

const GO = 'package goboottypes\n\n// DirPerm is used for creating directories.\nconst DirPerm = 0755\n\n// FilePerm is used for writing files.\nconst FilePerm = 0644\n\nconst (\n\t// TemplateSuffix marks a scaffold source; it is stripped after rendering.\n\tTemplateSuffix = ".tmpl"\n)\n';

describe('a symbol neither the code index nor the code graph lists (DEC-078)', () => {
  it('is found by the line that declares it: a constant in a block, an assignment, a typed field; never a comparison', () => {
    expect(declarationInText(GO, 'TemplateSuffix')).toEqual({ name: 'TemplateSuffix', line: 11, endLine: 11, docLine: 11 });
    expect(declarationInText(GO, 'DirPerm')?.line).toBe(4);
    expect(declarationInText('if MAX_RETRIES == 3:\n    pass\nMAX_RETRIES = 3\n', 'MAX_RETRIES')?.line).toBe(3);
    expect(declarationInText('class A {\n  private static final int TIMEOUT = 5;\n}\n', 'TIMEOUT')?.line).toBe(2);
    expect(declarationInText('export const limit: number = 4;\n', 'limit')?.line).toBe(1);
    expect(declarationInText('\tDirPerm os.FileMode = 0o755\n', 'DirPerm')?.line).toBe(1);
    expect(declarationInText(GO, 'Missing')).toBeUndefined();
    expect(declarationInText(GO, 'not a name')).toBeUndefined();
  });

  it('`for file#Constant` answers from the constant and its comment instead of failing with "no symbol"', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'doc/adr/adr-001-scaffold-suffix.md':
        '# ADR-001: A suffix for scaffold sources\n\n## Status\n\nAccepted\n\n## Context\n\nLinters ran on the scaffold sources and failed on their placeholders.\n\n## Decision\n\nEvery scaffold source ends in `.tmpl` (`TemplateSuffix`), stripped after rendering.\n',
      'doc/adr/adr-002-permissions.md': '# ADR-002: File permissions\n\n## Status\n\nAccepted\n\n## Decision\n\nDirectories are created 0755 and files written 0644.\n',
      'pkg/goboottypes/os.go': GO,
    });
    repo.commit('fixture');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'pkg/goboottypes/os.go', symbol: 'TemplateSuffix' }, neighbours: false, staleness: false });
      expect(r.query).toMatchObject({ kind: 'place', symbol: 'TemplateSuffix' });
      expect(r.results[0]?.id).toBe('ADR-001');
      await expect(retrieveForPlace({ snapshot, set, target: { path: 'pkg/goboottypes/os.go', symbol: 'Missing' }, neighbours: false, staleness: false })).rejects.toThrow(/no symbol Missing/);
    } finally {
      snapshot.close();
    }
  });
});
