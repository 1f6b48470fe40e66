import { describe, expect, it } from 'vitest';
import { connect } from '../mcp/helpers.js';
import { makeRepo } from '../helpers/git-repo.js';

const DEC = `---
id: DEC-DATES-001
type: decision
status: accepted
confirm:
  - forbid-import: "moment*"
    in: [src/**]
    message: use luxon
---
# Luxon, not moment
`;

describe('MCP check_change', () => {
  it('reports the violations the working tree adds, or a given diff adds, through a real client', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-DATES-001.md': DEC,
      'src/legacy.ts': "import moment from 'moment';\nexport const a = moment;\n",
    });
    repo.commit('legacy');
    const c = await connect({ cwd: repo.dir });
    expect((await c.client.listTools()).tools.map((t) => t.name)).toContain('check_change');

    // nothing changed: the legacy import is not the agent's doing
    const clean = await c.call('check_change');
    expect(clean.isError).toBeFalsy();
    expect(clean.data.violations).toEqual([]);
    expect(clean.text).toContain('no decision is violated');

    // an edit adding an import, and a new untracked file
    repo.write({ 'src/legacy.ts': "import moment from 'moment';\nimport tz from 'moment-timezone';\nexport const a = moment;\n", 'src/new.ts': "// moment is not imported here\nexport const b = require('moment');\n" });
    const edit = await c.call('check_change');
    expect(edit.data.violations).toEqual([
      { file: 'src/legacy.ts', line: 2, column: 1, id: 'DEC-DATES-001', kind: 'forbid-import', pattern: 'moment*', message: 'use luxon', severity: 'error' },
      { file: 'src/new.ts', line: 2, column: 18, id: 'DEC-DATES-001', kind: 'forbid-import', pattern: 'moment*', message: 'use luxon', severity: 'error' },
    ]);
    expect(edit.text).toContain('src/legacy.ts:2:1  import of "moment-timezone": forbidden by DEC-DATES-001 — use luxon');

    // a given diff: only its added lines count
    const diff = ['--- a/src/legacy.ts', '+++ b/src/legacy.ts', '@@ -1,0 +1,1 @@', "+import moment from 'moment';"].join('\n');
    const given = await c.call('check_change', { diff });
    expect((given.data.violations as { file: string; line: number }[]).map((v) => `${v.file}:${v.line}`)).toEqual(['src/legacy.ts:1']);
  });
});
