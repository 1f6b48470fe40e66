import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { mentionSignals, retrieveForPlace } from '../../src/retrieve/engine.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * Shaped like goboot's records (the fourth dev set, DEC-078): one record lays out the packages,
 * naming four folders as examples of what may import what; another decides what the config
 * manager does and names no folder. The manager's file sits in one of the four folders.
 */
function fixture() {
  const repo = makeRepo({
    '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
    'doc/adr/adr-001-package-isolation.md':
      '# ADR-001: Package isolation\n\n## Status\n\nAccepted\n\n## Context\n\nPackages imported each other and grew circular dependencies.\n\n## Decision\n\nPackages talk only through shared contracts: `pkg/config` holds the data structures of every module, `pkg/types` the constants and interfaces, `pkg/app` wires them together, and `pkg/lint` imports none of the others. A package never registers itself in another; each returns its own errors and validates its own input and keys what it keeps by ID.\n',
    'doc/adr/adr-002-validated-registration.md':
      '# ADR-002: Validated registration\n\n## Status\n\nAccepted\n\n## Context\n\nA broken YAML file produced a half-generated project.\n\n## Decision\n\nThe manager registers a module only when it passes Validate() and has a non-empty, unique ID; a duplicate is rejected with an error.\n',
    'pkg/config/manager.go':
      'package config\n\nimport "fmt"\n\n// Manager keeps the validated modules by ID.\ntype Manager struct{ modules map[string]Module }\n\n// Register adds a module after validating it; a duplicate ID is an error.\nfunc (m *Manager) Register(mod Module) error {\n\tif err := mod.Validate(); err != nil {\n\t\treturn fmt.Errorf("invalid module: %w", err)\n\t}\n\tif _, dup := m.modules[mod.ID()]; dup {\n\t\treturn fmt.Errorf("module %q already registered", mod.ID())\n\t}\n\tm.modules[mod.ID()] = mod\n\treturn nil\n}\n',
    'pkg/config/module.go': 'package config\n\n// Module is one validated piece of the configuration.\ntype Module interface {\n\tID() string\n\tValidate() error\n}\n',
    'pkg/types/names.go': 'package types\n\nconst NameLint = "lint"\n',
    'pkg/app/app.go': 'package app\n\nfunc Run() error { return nil }\n',
    'pkg/lint/lint.go': 'package lint\n\nfunc Lint() error { return nil }\n',
  });
  repo.commit('fixture');
  return repo;
}

describe('a record naming several folders (DEC-078)', () => {
  it('says less of each: the record deciding the file comes before the one that lays out four packages', async () => {
    const repo = fixture();
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'pkg/config/manager.go' }, neighbours: false, staleness: false });
      expect(r.results.map((x) => x.id)).toEqual(['ADR-002', 'ADR-001']);
      const sig = mentionSignals(set, 'pkg/config/manager.go');
      // a folder named alone counts 0.5; one of four named, half of that
      expect(sig.get('ADR-001')?.score).toBeCloseTo(0.25, 3);
    } finally {
      snapshot.close();
    }
  });
});
