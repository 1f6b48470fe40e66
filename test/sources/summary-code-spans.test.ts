import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// thunderbird-android's API/internal record decides in Gradle module paths written as code
// (`:feature:*:api`); the summary derived from it (shown by for, search, MCP) read
// ":feature::api modules …" because the `*` was taken for emphasis (DEC-086).
describe('a summary derived from a decision written with code spans', () => {
  it('keeps what the code spans hold and still drops emphasis around them', () => {
    const repo = makeRepo({
      'docs/engineering/adr/0009-api-internal-split.md':
        '# Feature/Core API/Internal split\n\n## Status\n\n- **Accepted**\n\n## Decision\n\n- `:feature:*:api` modules define the **public** contracts exposed to other features.\n- `:feature:*:impl` modules are renamed to `:feature:*:internal`; Python packages keep `__init__.py` *empty*.\n',
      'settings.gradle.kts': 'include(":feature:account:api")\n',
    });
    repo.commit('record');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    const a = (JSON.parse(list.stdout) as { artifacts: { id: string; summary?: string }[] }).artifacts.find((x) => x.id === 'ADR-0009');
    expect(a?.summary).toBe(':feature:*:api modules define the public contracts exposed to other features. :feature:*:impl modules are renamed to :feature:*:internal; Python packages keep __init__.py empty.');
  });
});
