import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect, fixtureRepo, indexIds, sectionIds } from './helpers.js';

const ALL = ['NORM-ERROR-001', 'NORM-LOG-001', 'SPEC-BILLING-001', 'DEC-BILLING-001'];

describe('get_context sessions', () => {
  it('sends each artifact once per session and says what was already sent', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const first = await c.call('get_context', { ids: ['DEC-BILLING-001'], session_id: 'agent-1' });
    expect(sectionIds(first.text)).toEqual(ALL);
    const second = await c.call('get_context', { ids: ['DEC-BILLING-001'], session_id: 'agent-1' });
    expect(second.isError).toBeFalsy();
    expect(sectionIds(second.text)).toEqual([]);
    expect(second.text).toContain(`Already sent in this session and unchanged, not repeated: ${ALL.join(', ')}`);
    expect(second.text).toContain('Nothing new to send.');
    expect(second.data.alreadySent).toEqual(ALL);
    // a requires closure that overlaps what was sent only adds the new part
    const task = await c.call('get_context', { ids: ['TASK-042', 'NORM-ERROR-001'], session_id: 'agent-1' });
    expect(sectionIds(task.text)).toEqual(['TASK-042']);
    expect(task.text).toContain('not repeated: NORM-ERROR-001, NORM-LOG-001');
    // another session is independent; no session means no memory
    expect(sectionIds((await c.call('get_context', { ids: ['DEC-BILLING-001'], session_id: 'agent-2' })).text)).toEqual(ALL);
    expect(sectionIds((await c.call('get_context', { ids: ['DEC-BILLING-001'] })).text)).toEqual(ALL);
    // the index marks what this session already has
    const index = await c.call('get_context', { session_id: 'agent-1', areas: ['norm', 'task'] });
    expect(index.text).toContain('- NORM-ERROR-001 [norm · active · global] Errors carry codes (already sent)');
    expect(index.text).toMatch(/- TASK-042 \[task · active · project\] Add credit notes \(already sent\)/);
  });

  it('re-sends an artifact whose content changed, and points at other changed ones', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    await c.call('get_context', { ids: ['DEC-BILLING-001'], session_id: 's' });
    repo.write({ '.contextia/system/norms/NORM-LOG-001.md': readFileSync(path.join(repo.dir, '.contextia/system/norms/NORM-LOG-001.md'), 'utf8').replace('Log JSON lines.', 'Log JSON lines with a request id.') });
    const other = await c.call('get_context', { ids: ['TASK-042'], session_id: 's' });
    expect(sectionIds(other.text)).toEqual(['TASK-042']);
    expect(other.text).toContain('Also changed since this session received them (not re-sent, ask for them to refresh): NORM-LOG-001');
    expect(other.data.dirty).toBe(true);
    const again = await c.call('get_context', { ids: ['DEC-BILLING-001'], session_id: 's' });
    expect(sectionIds(again.text)).toEqual(['NORM-LOG-001']);
    expect(again.text).toContain('with a request id');
    expect(again.text).toContain('Re-sent because they changed since this session received them: NORM-LOG-001');
    expect(again.text).toContain('· changed since last sent');
    expect(again.text).toContain('not repeated: NORM-ERROR-001, SPEC-BILLING-001, DEC-BILLING-001');
    // committing the same content changes nothing for the session
    repo.commit('edit norm');
    expect(sectionIds((await c.call('get_context', { ids: ['DEC-BILLING-001'], session_id: 's' })).text)).toEqual([]);
  });

  it('reset forgets what the session received', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    await c.call('get_context', { ids: ['NORM-LOG-001'], session_id: 's' });
    const r = await c.call('get_context', { ids: ['NORM-LOG-001'], session_id: 's', reset: true });
    expect(sectionIds(r.text)).toEqual(['NORM-LOG-001']);
    expect(r.text).toContain('Session reset');
    expect(sectionIds((await c.call('get_context', { ids: ['NORM-LOG-001'], session_id: 's' })).text)).toEqual([]);
  });

  it('persists under <git-dir>/ctx/sessions/<sha256(session_id)>.json and survives a restart', async () => {
    const repo = fixtureRepo();
    const a = await connect({ cwd: repo.dir });
    await a.call('get_context', { ids: ['NORM-ERROR-001'], session_id: 'long-lived' });
    await a.close();
    const file = path.join(repo.dir, '.git/ctx/sessions', `${createHash('sha256').update('long-lived').digest('hex')}.json`);
    expect(existsSync(file)).toBe(true);
    const record = JSON.parse(readFileSync(file, 'utf8')) as { version: number; sent: Record<string, string> };
    expect(record.version).toBe(1);
    expect(record.sent).toEqual({
      'NORM-ERROR-001': repo.git('rev-parse', 'HEAD:.contextia/system/norms/NORM-ERROR-001.md'),
      'NORM-LOG-001': repo.git('rev-parse', 'HEAD:.contextia/system/norms/NORM-LOG-001.md'),
    });
    const b = await connect({ cwd: repo.dir });
    const r = await b.call('get_context', { ids: ['NORM-ERROR-001'], session_id: 'long-lived' });
    expect(sectionIds(r.text)).toEqual([]);
    expect(r.text).toContain('not repeated: NORM-ERROR-001, NORM-LOG-001');
  });

  it('falls back to the index when ids the session received have vanished', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    await c.call('get_context', { ids: ['DEC-OLD-001', 'NORM-LOG-001'], session_id: 's' });
    // renumbered: the file moves and its id changes
    const old = readFileSync(path.join(repo.dir, '.contextia/system/rationale/DEC-OLD-001.md'), 'utf8');
    repo.rm('.contextia/system/rationale/DEC-OLD-001.md');
    repo.write({ '.contextia/system/rationale/DEC-OLD-002.md': old.replace('DEC-OLD-001', 'DEC-OLD-002') });
    repo.commit('renumber');
    const r = await c.call('get_context', { ids: ['TASK-042'], session_id: 's' });
    expect(r.isError).toBeFalsy();
    expect(r.data.phase).toBe(1);
    expect(r.text).toContain('This session had received DEC-OLD-001, which no longer exist (deleted or renamed since)');
    expect(indexIds(r.text)).toContain('DEC-OLD-002');
    expect(sectionIds(r.text)).toEqual([]);
    // the vanished id is forgotten; the rest of the session's memory stays
    const next = await c.call('get_context', { ids: ['TASK-042', 'NORM-LOG-001'], session_id: 's' });
    expect(next.data.phase).toBe(2);
    expect(sectionIds(next.text)).toEqual(['TASK-042']);
    expect(next.text).toContain('not repeated: NORM-LOG-001');
  });
});
