import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { CODE, RECORDS } from '../pr/change-scenario.js';
import { connect } from '../mcp/helpers.js';

/*
 * `git ctx for --diff` and MCP context_for_change say a record the change edits once, under
 * what the change does to records, with what else it is to the change on an indented line —
 * as the PR comment does (DEC-084). JSON keeps both lists and marks the record change.
 */

const rec = (id: string, title: string, fm: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n${fm}---\n\n# ${title}\n\n${body}\n`;

function editedGoverningRepo() {
  const repo = makeRepo({ ...RECORDS, ...CODE });
  repo.commit('payments service');
  repo.git('checkout', '-q', '-b', 'feature');
  repo.write({
    'src/handlers/card.ts': CODE['src/handlers/card.ts']!.replace('  return charge', '  const key = idempotencyKey(orderId, 1);\n  return charge'),
    // edited, and it declares the changed code
    '.contextia/system/rationale/DEC-ERR.md': rec('DEC-ERR', 'Errors of payment handlers', 'paths: [src/handlers/**]\n', 'Handlers return typed errors; a gateway failure becomes a retryable error carrying the idempotency key.'),
  });
  repo.commit('Send an idempotency key from the card handler');
  return repo;
}

describe('a record the change edits, in for --diff and context_for_change', () => {
  it('is said once, under the record changes, with its other role indented; JSON marks it alsoRanked', async () => {
    const repo = editedGoverningRepo();
    const human = runCli(['for', '--diff', 'main...feature'], { cwd: repo.dir });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.match(/DEC-ERR/g)).toHaveLength(1);
    expect(human.stdout).toMatch(/ {2}This change edits decision DEC-ERR — Errors of payment handlers \(accepted\)\n {6}it governs this change too \(declared\): .*src\/handlers\/card\.ts/);

    const context = runCli(['for', '--diff', 'main...feature', '--format', 'context'], { cwd: repo.dir });
    expect(context.stdout.match(/DEC-ERR/g)).toHaveLength(1);
    expect(context.stdout).toMatch(/This change edits decision DEC-ERR — Errors of payment handlers \(accepted\)\.\n {2}- it governs this change too \(declared\): .*src\/handlers\/card\.ts/);
    expect(context.stdout).toMatch(/\n- DEC-IDEM — /);

    // JSON keeps its documented keys: the record stays ranked, marked editedHere, and its record change says so
    const json = JSON.parse(runCli(['for', '--diff', 'main...feature', '--json'], { cwd: repo.dir }).stdout);
    expect(json.ranked.find((x: { id: string }) => x.id === 'DEC-ERR')).toMatchObject({ strength: 'declared', editedHere: true });
    expect(json.recordChanges).toEqual([{ id: 'DEC-ERR', type: 'decision', title: 'Errors of payment handlers', status: 'accepted', file: '.contextia/system/rationale/DEC-ERR.md', change: 'edited', alsoRanked: true }]);

    const c = await connect({ cwd: repo.dir });
    const r = await c.call('context_for_change', { range: 'main...feature' });
    expect(r.isError).toBeFalsy();
    expect(r.text.match(/DEC-ERR/g)).toHaveLength(1);
    expect(r.text).toContain('This change edits decision DEC-ERR — Errors of payment handlers (accepted).\n  - it governs this change too (declared): ');
    expect(r.data.record_changes).toEqual([{ id: 'DEC-ERR', type: 'decision', title: 'Errors of payment handlers', status: 'accepted', file: '.contextia/system/rationale/DEC-ERR.md', change: 'edited', also_ranked: true }]);
    expect((r.data.results as { id: string; edited_here?: boolean }[]).find((x) => x.id === 'DEC-ERR')).toMatchObject({ edited_here: true });
  });
});
