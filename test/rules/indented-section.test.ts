import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAdr } from '../../src/artifacts/sources/adr.js';
import { recordIndex, ruleText } from '../../src/rules/text.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// trials29, cloud-carbon-footprint: a Decision section written indented as a whole
// ("    1) Host …" / "        - default: …"). The rule text trimmed its first line only, so the
// first item stood at the margin and the rest stayed indented as code.
const RECORD = '# 4. Hosting\n\nDate: 2020-09-01\n\n## Status\n\nAccepted\n\n## Decision\n\n    1) Serve the app from one managed platform with 2 services:\n        - web: static assets\n        - api: the estimates API\n    2) Ship container images as the build artifacts\n\n## Context\n\nWe deploy by hand today.\n';

describe('a decision section indented as a whole', () => {
  it('loses the shared indentation, keeps the nesting', () => {
    const a = parseAdr('.adr/0004-hosting.md', Buffer.from(RECORD), { prefix: 'ADR-', type: 'decision' }).artifact!;
    expect(ruleText(a, recordIndex([a])).text).toBe('1) Serve the app from one managed platform with 2 services:\n    - web: static assets\n    - api: the estimates API\n2) Ship container images as the build artifacts');
  });

  it('rules export writes it so', () => {
    const repo = makeRepo({ '.adr-dir': '.adr\n', '.adr/0004-hosting.md': RECORD, '.adr/0005-keep-logs.md': '# 5. Keep logs\n\n## Status\n\nAccepted\n\n## Decision\n\nKeep request logs for 30 days.\n\n  Rotate them daily.\n' });
    repo.commit('records');
    const r = runCli(['rules', 'export'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const agents = readFileSync(path.join(repo.dir, 'AGENTS.md'), 'utf8');
    expect(agents).toContain('### ADR-0004: Hosting\n\n1) Serve the app from one managed platform with 2 services:\n    - web: static assets\n');
    // a section whose lines do not all share an indentation is left as written
    expect(agents).toContain('Keep request logs for 30 days.\n\n  Rotate them daily.');
  });
});
