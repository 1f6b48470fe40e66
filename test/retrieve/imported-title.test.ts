import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { importedModules, libraryWords } from '../../src/retrieve/imported-title.js';
import { makeRepo } from '../helpers/git-repo.js';

// Shaped like SmartBear/git-en-boite (DEC-111): adr-tools records, one of which chooses a
// library by name ("Prefer dugite over raw git commands"), a TypeScript file wrapping that
// library, and Java-style code importing its own namespaces, whose words a title also writes.
function fixture() {
  const repo = makeRepo({
    'doc/adr/0001-prefer-dugite-over-raw-git-commands.md':
      '# 1. Prefer dugite over raw git commands\n\nDate: 2020-05-01\n\n## Status\n\nAccepted\n\n## Context\n\nSpawning git ourselves needs care with paths and environments.\n\n## Decision\n\nRun every git command through one process wrapper.\n',
    'doc/adr/0002-keep-repository-folders-small.md':
      '# 2. Keep repository folders small\n\nDate: 2020-05-02\n\n## Status\n\nAccepted\n\n## Context\n\nEach connected repository is kept in a folder with a working directory and an index.\n\n## Decision\n\nThe folder of a repository holds its git directory, its index files and nothing else; a directory per repository keeps the index files apart.\n',
    'doc/adr/0003-ledger-entries-are-immutable.md':
      '# 3. Ledger entries are immutable\n\nDate: 2020-05-03\n\n## Status\n\nAccepted\n\n## Decision\n\nA posted entry is never changed; a correction is a new entry.\n',
    'packages/clones/src/run_in_folder.ts':
      "import { GitProcess } from 'dugite'\n\n// runs one step in a repository's folder, next to its index files\nexport async function runInFolder(directory: string, args: string[]) {\n  const result = await GitProcess.exec(args, directory, { env: { GIT_TERMINAL_PROMPT: '0' } })\n  if (result.exitCode !== 0) throw new Error(result.stderr)\n  return result.stdout\n}\n",
    'packages/clones/src/folder_names.ts': "import path from 'path'\n\n// the folder and index names of a repository\nexport const folderOf = (directory: string, repo: string) => path.join(directory, repo)\nexport const indexName = (repo: string) => `index-${repo}`\n",
    'src/main/java/org/acme/ledger/Ledger.java': 'package org.acme.ledger;\n\npublic class Ledger {\n  public void post(int amount) { }\n}\n',
    'src/main/java/org/acme/billing/Invoice.java': 'package org.acme.billing;\n\nimport org.acme.ledger.Ledger;\nimport java.util.concurrent.atomic.AtomicInteger;\n\npublic class Invoice {\n  private final Ledger ledger = new Ledger();\n  private final AtomicInteger lines = new AtomicInteger();\n}\n',
  });
  repo.commit('fixture');
  return repo;
}

describe('a record whose title names a library the file imports (DEC-111)', () => {
  it('reads the modules of the common import forms, and the library each names', () => {
    const js = "import { GitProcess } from 'dugite'\nimport IORedis from 'ioredis'\nconst q = require('bullmq')\nimport './styles.css'\nimport { x } from '../own'\n";
    expect(importedModules(js)).toEqual(['dugite', 'ioredis', 'bullmq', './styles.css'].filter((m) => !m.startsWith('.')));
    // a JavaScript default import's name is no module
    expect(importedModules(js)).not.toContain('IORedis');
    expect(importedModules('package a;\nimport com.google.common.truth.Truth;\nimport static org.junit.Assert.assertEquals;\n')).toEqual(['com.google.common.truth.Truth', 'org.junit.Assert.assertEquals']);
    expect(importedModules('from sqlalchemy import orm\nimport requests\n')).toEqual(['sqlalchemy', 'requests']);
    expect(importedModules('import (\n\t"fmt"\n\tredis "github.com/redis/go-redis/v9"\n)\n')).toEqual(['fmt', 'github.com/redis/go-redis/v9']);
    expect(importedModules('use serde::Deserialize;\nusing Polly.Retry;\nuse Predis\\Client;\n')).toEqual(['serde::Deserialize', 'Polly.Retry', 'Predis\\Client']);
    expect(libraryWords('@emotion/react')).toEqual(['emotion', 'react']);
    expect(libraryWords('github.com/redis/go-redis/v9')).toEqual(['redis', 'go']);
    expect(libraryWords('org.junit.jupiter.api.Test')).toEqual(['junit', 'jupiter']);
    // a namespace's deeper parts are what the code is about, not which library it uses
    expect(libraryWords('java.util.concurrent.atomic.AtomicInteger')).toEqual(['java']);
  });

  it('the record choosing the library comes first for the file wrapping it; the code\'s own namespaces name no library', async () => {
    const repo = fixture();
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'packages/clones/src/run_in_folder.ts' }, neighbours: false, staleness: false });
      // without the import's signal the folder record comes first (0.43 against 0.40)
      expect(r.results[0]?.id).toBe('ADR-0001');
      expect(r.results[0]?.why.map((w) => w.text).join(' | ')).toMatch(/its title names dugite, a library the file imports \(dugite\)/);
      // without the import, the folder record's words win: the import is what tells them apart
      const names = await retrieveForPlace({ snapshot, set, target: { path: 'packages/clones/src/folder_names.ts' }, neighbours: false, staleness: false });
      expect(names.results.find((x) => x.id === 'ADR-0001')?.why.some((w) => /library the file imports/.test(w.text)) ?? false).toBe(false);
      // `org.acme.ledger` is the team's own namespace (a folder of its code): no library signal for the ledger record
      const invoice = await retrieveForPlace({ snapshot, set, target: { path: 'src/main/java/org/acme/billing/Invoice.java' }, neighbours: false, staleness: false });
      for (const x of [...invoice.results, ...(invoice.weak ?? [])]) expect(x.why.some((w) => /library the file imports/.test(w.text)), x.id).toBe(false);
    } finally {
      snapshot.close();
    }
  });
});
