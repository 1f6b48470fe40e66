import { describe, expect, it } from 'vitest';
import { planAnnotations } from '../../src/action/annotations.js';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { renderPrComment } from '../../src/pr/render.js';
import { useFakeGitHub } from '../action/run-action.js';
import { pullRequestRepo } from '../helpers/git-repo.js';

const DEC = `---
id: DEC-DATES-001
type: decision
title: Luxon, not moment
status: accepted
confirm:
  - forbid-import: "moment*"
    in: [src/**]
    message: use luxon
  - forbid-call: console.log
    in: [src/**]
    severity: warning
---
# Luxon, not moment
`;

const scenario = () =>
  pullRequestRepo({
    files: {
      '.contextia/system/rationale/DEC-DATES-001.md': DEC,
      'src/legacy.ts': "import moment from 'moment';\nexport const a = () => moment();\n",
    },
    change: {
      // the legacy import stays (not the PR's doing); a line is added below it
      'src/legacy.ts': "import moment from 'moment';\nexport const a = () => moment();\nexport const b = () => console.log(a());\n",
      'src/dates.ts': "import { DateTime } from 'luxon';\nimport tz from 'moment-timezone';\nexport const now = () => DateTime.now();\n",
    },
  });

const github = useFakeGitHub();

describe('PR bot: confirmations on the lines a pull request adds', () => {
  it('reports only added-line violations, with the decision, as annotations and in the comment', async () => {
    const s = scenario();
    const r = await analyzePullRequest({ cwd: s.repo.dir, base: 'main', head: 'feature', cache: false });
    const v = r.coherence.introduced.filter((f) => f.rule === 'confirmation-violated');
    expect(v.map((f) => `${f.file}:${f.line} ${f.severity} ${f.message}`)).toEqual([
      'src/dates.ts:2 error import of "moment-timezone": forbidden by DEC-DATES-001 — use luxon',
      'src/legacy.ts:3 warning call of console.log(…): forbidden by DEC-DATES-001',
    ]);
    const { annotations } = planAnnotations(r);
    expect(annotations.filter((a) => a.properties.title === 'git-ctx: DEC-DATES-001 violated')).toEqual([
      { level: 'error', message: 'import of "moment-timezone": forbidden by DEC-DATES-001 — use luxon', properties: { title: 'git-ctx: DEC-DATES-001 violated', file: 'src/dates.ts', startLine: 2, endLine: 2, startColumn: 1 } },
      { level: 'warning', message: 'call of console.log(…): forbidden by DEC-DATES-001', properties: { title: 'git-ctx: DEC-DATES-001 violated', file: 'src/legacy.ts', startLine: 3, endLine: 3, startColumn: 24 } },
    ]);
    const md = renderPrComment(r);
    expect(md).toContain('`src/dates.ts:2`');
    expect(md).toContain('forbidden by DEC\\-DATES\\-001');
    expect(md).not.toContain('src/legacy.ts:1');
  });

  it('the Action posts them through GitHub (fake server)', async () => {
    const s = scenario();
    const r = await github.pr(s.repo.dir, { number: 7, base: s.base, head: s.head }, { inputs: { 'fail-on': 'error' } });
    expect(r.code, r.stderr).toBe(1);
    const errs = r.annotations.filter((a) => a.level === 'error' && a.props.file === 'src/dates.ts');
    expect(errs).toHaveLength(1);
    expect(errs[0]!.props).toMatchObject({ title: 'git-ctx: DEC-DATES-001 violated', line: '2' });
    expect(errs[0]!.message).toContain('forbidden by DEC-DATES-001');
    expect(r.annotations.some((a) => a.props.file === 'src/legacy.ts' && a.props.line === '1')).toBe(false);
    const body = github.comment(7)!;
    expect(body).toContain('`src/dates.ts:2`');
    expect(body).toContain('use luxon');
  });
});
