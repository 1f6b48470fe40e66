import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// A Kotlin monorepo's "Project Structure" record draws its modules twice in ```mermaid inside its
// Decision section (DEC-086): `rules export` copied both diagrams, 120 lines of graph source, into
// the AGENTS.md an agent reads on every request. A diagram is left out; code examples stay.
const RECORD = `# Project Structure

## Status

- **Accepted**

## Decision

1. **App Modules**: \`app-thunderbird\` and \`app-k9mail\` depend only on \`app-common\`.
2. **Feature Modules**: \`feature:*\` modules never depend on another feature's internals.

\`\`\`mermaid
graph TD
    subgraph APP[App]
        APP_TB[":app-thunderbird"]
    end
    APP_TB --> APP_COMMON
\`\`\`

A module declares its dependencies like this:

\`\`\`kotlin
dependencies { implementation(projects.core.common) }
\`\`\`

~~~plantuml
@startuml
App -> Common
@enduml
~~~

Legacy modules follow the same rules.

## Consequences

- Clearer boundaries.
`;

describe('rules export of a record that draws diagrams', () => {
  it("leaves the diagrams' source out of the rule file and keeps the prose and the code example, beside the team's own AGENTS.md text", () => {
    const repo = makeRepo({
      'AGENTS.md': '# AI Agent Guide\n\nAgents MUST read docs/engineering/adr before structural changes.\n',
      'app-common/src/main/kotlin/Common.kt': 'package net.example\n',
      'docs/engineering/adr/0007-project-structure.md': RECORD,
    });
    repo.commit('records');
    const r = runCli(['rules', 'export'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const agents = readFileSync(path.join(repo.dir, 'AGENTS.md'), 'utf8');
    expect(agents.startsWith('# AI Agent Guide\n\nAgents MUST read')).toBe(true);
    expect(agents).toContain('### ADR-0007: Project Structure');
    expect(agents).toContain("never depend on another feature's internals.");
    expect(agents).toContain('dependencies { implementation(projects.core.common) }');
    expect(agents).toContain('Legacy modules follow the same rules.');
    expect(agents).not.toMatch(/mermaid|subgraph|plantuml|@startuml/);
    // a second export finds the file up to date
    const again = runCli(['rules', 'export', '--check'], { cwd: repo.dir });
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
