import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { connect } from './helpers.js';

// DEC-130: add_decision and propose_decision name the record the new decision looks like it
// replaces (`replaces`: id, title, reason) and how to record it; they link nothing themselves.
describe('add_decision / propose_decision: the record a decision replaces (real MCP client)', () => {
  it('names it in data and text, and leaves the old record as it was', async () => {
    const repo = makeRepo();
    cpSync(path.resolve(import.meta.dirname, '../fixtures/authoring-replaces/repo'), repo.dir, { recursive: true });
    repo.commit('records');
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('add_decision', { decision: 'Stop using Redux; use React context for client state' });
    expect(r.data).toMatchObject({ outcome: 'written', id: 'ADR-0011', replaces: [{ id: 'ADR-0003', title: 'Use Redux for client state', reason: '"Stop using Redux" leaves Redux, which ADR-0003 names; same subject: client state' }] });
    expect(r.text).toContain('It looks like it replaces ADR-0003 "Use Redux for client state"');
    expect(r.text).toContain('record it: git ctx supersede ADR-0003 --by ADR-0011');
    expect(readFileSync(path.join(repo.dir, 'doc/adr/0003-use-redux-for-client-state.md'), 'utf8')).toContain('\nAccepted\n');

    const p = await c.call('propose_decision', { decision: 'Use Pulumi for infrastructure as code' });
    expect(p.data).toMatchObject({ outcome: 'written', replaces: [{ id: 'ADR-0010' }] });
    expect(p.text).toContain('once a person confirms yours: git ctx supersede ADR-0010 --by');

    const none = await c.call('add_decision', { decision: 'Cache exchange rates in Redis for one hour' });
    expect(none.data.replaces).toBeUndefined();
    expect(none.text).not.toContain('replaces');
  });
});
