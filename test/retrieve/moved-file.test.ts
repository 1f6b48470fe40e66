import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { makeRepo } from '../helpers/git-repo.js';

// Shaped like goboot (a dev set, DEC-095): the record deciding the service-name registry names
// `pkg/types/names.go` in its title and summary, but the package has since moved to
// `pkg/goboottypes`; a broader record lists the package folders (one of them pkg/goboottypes)
// and shares more of the file's words.
const adr = (n: string, title: string, body: string) => `# ADR-${n}: ${title}\n\n## Status\n\nAccepted\n\n## Decision\n\n${body}\n`;

function fixture(extra: Record<string, string> = {}) {
  const repo = makeRepo({
    '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
    'doc/adr/adr-006-isolation.md': adr('006', 'Strict Service Isolation', 'Each service lives in its own package and shares only constants and types through `pkg/goboottypes`, `pkg/config` and `pkg/utils`. Local lint settings are shared by each base service.'),
    'doc/adr/adr-007-names.md': adr('007', 'Centralized Service Name Registry in types/names.go', 'Define all service names as constants in one file: `pkg/types/names.go`. Service identifiers are declared once, as shared names of the base services: base project, base lint, base local.'),
    'pkg/goboottypes/names.go': 'package goboottypes\n\n// Shared service names: local constants across the base services, for lint and test.\nconst (\n\tBaseProject = "base_project"\n\tBaseLint    = "base_lint"\n\tBaseLocal   = "base_local"\n)\n',
    'pkg/config/config.go': 'package config\n\n// Config holds a service config.\ntype Config struct{}\n',
    ...extra,
  });
  repo.commit('fixture');
  return repo;
}

async function ask(repo: ReturnType<typeof makeRepo>, path: string) {
  const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
  try {
    const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
    return await retrieveForPlace({ snapshot, set, target: { path }, neighbours: false, staleness: false });
  } finally {
    snapshot.close();
  }
}

describe('a record naming the path a file had before it moved (DEC-095)', () => {
  it('mentions the only file of the tree with that name', async () => {
    const r = await ask(fixture(), 'pkg/goboottypes/names.go');
    expect(r.results[0]?.id).toBe('ADR-007');
    expect(r.results[0]?.why.some((w) => w.kind === 'mention' && /types\/names\.go, not in the tree/.test(w.text))).toBe(true);
  });

  it('says nothing when another file bears the name too', async () => {
    const r = await ask(fixture({ 'internal/names.go': 'package internal\n\nconst X = 1\n' }), 'pkg/goboottypes/names.go');
    expect(r.results.find((x) => x.id === 'ADR-007')?.why.some((w) => /not in the tree/.test(w.text)) ?? false).toBe(false);
  });
});

// Shaped like an adr-tools folder whose records show their diagrams beside them: a markdown
// image link written from the record's folder, with GitHub's `?raw=true` query after it.
describe('a record showing a diagram kept beside it', () => {
  const nygard = (n: number, title: string, body: string) => `# ${n}. ${title}\n\nDate: 2018-03-06\n\n## Status\n\nAccepted\n\n## Decision\n\n${body}\n`;
  function folder() {
    const repo = makeRepo({
      'docs/architecture/decisions/0001-record-architecture-decisions.md': nygard(1, 'Record architecture decisions', 'We will use Architecture Decision Records.'),
      'docs/architecture/decisions/0015-name-resolution.md': nygard(15, 'Name resolution', 'Each stack has an internal and an external zone.\n\n![Zones](./0015-zones-diagram.png?raw=true "Zones")\n'),
      'docs/architecture/decisions/0015-zones-diagram.png': '\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR',
      'stacks/zones/main.tf': 'resource "aws_route53_zone" "internal" {\n  name = "internal"\n}\n',
    });
    repo.commit('fixture');
    return repo;
  }

  it('mentions the diagram where it is, never as a file that moved', async () => {
    const r = await ask(folder(), 'docs/architecture/decisions/0015-zones-diagram.png');
    const hit = r.results.find((x) => x.id === 'ADR-0015');
    expect(hit?.why.some((w) => /not in the tree/.test(w.text)) ?? false).toBe(false);
    expect(hit?.why.some((w) => w.kind === 'mention')).toBe(true);
  });
});
