import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dateAsSpelled } from '../../src/artifacts/sources/record-template.js';
import { loadSet } from '../helpers/artifact-set.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials30 (Altinn/altinn-studio's shape): the folder's template spells its date's format
 * ("- Date: Proposal date (dd.MM.yyyy)") and the records write 04.09.2025; a new record wrote
 * 2025-09-04. It is written as the template spells it, and read back as that day.
 */
describe('a new record\'s date in the template\'s format', () => {
  it('new decision writes dd.MM.yyyy where the template says so, and the record reads back', async () => {
    const repo = makeRepo({
      'docs/adr/yyyy-mm-dd-template.md': '# A short descriptive title\n\n- Status: Proposed | Accepted | Exceeded by "adr-name"\n- Deciders: People | Team\n- Date: Proposal date (dd.MM.yyyy)\n\n## Result\n\nWhich alternative was chosen.\n\n## Problem context\n\nThe problem to solve.\n',
      'docs/adr/2025-09-04-report-storage.md': '# Report storage\n\n- Status: Accepted\n- Deciders: Team Reports\n- Date: 04.09.2025\n\n## Result\n\nReports are kept in a bucket.\n\n## Problem context\n\nReports grow.\n',
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', 'Cache the code lists', '--date', '2026-03-07', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { file: string };
    const text = readFileSync(path.join(repo.dir, out.file), 'utf8');
    expect(text).toContain('- Date: 07.03.2026\n');
    expect(text).not.toMatch(/^- Date: \d{4}-/m);
    const set = await loadSet(repo.dir);
    expect(set.problems).toEqual([]);
  });

  it('spells day, month and year as the placeholder orders them', () => {
    expect(dateAsSpelled('2026-03-07', 'Proposal date (dd.MM.yyyy)')).toBe('07.03.2026');
    expect(dateAsSpelled('2026-03-07', 'DD/MM/YYYY')).toBe('07/03/2026');
    expect(dateAsSpelled('2026-03-07', 'MM/DD/YYYY')).toBe('03/07/2026');
    expect(dateAsSpelled('2026-03-07', '[YYYY-MM-DD]')).toBe('2026-03-07');
    expect(dateAsSpelled('2026-03-07', 'DATE')).toBe('2026-03-07');
  });
});
