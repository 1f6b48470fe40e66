import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/run.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';

const NOW = new Date('2026-11-27T00:00:00Z');
const rec = (id: string, fm: string) => `---\nid: ${id}\ntype: decision\ntitle: ${id}\n${fm}---\n\n# ${id}\n\nText.\n`;

async function info(repo: TestRepo) {
  const snapshot = await openSnapshot({ cwd: repo.dir });
  try {
    return (await runCheck({ snapshot, now: NOW })).findings.filter((f) => f.rule === 'proposal-unconfirmed');
  } finally {
    snapshot.close();
  }
}

describe('proposal-unconfirmed check rule', () => {
  it('reports, as info, agent-written records unconfirmed longer than the configured days', async () => {
    const repo = makeRepo({
      // 30 days old, proposed by an agent: reported
      '.contextia/system/rationale/DEC-001.md': rec('DEC-001', 'status: proposed\ncreated: 2026-10-28\nsource: ai_chat\nsession_id: s-1\nconfidence: ai_inferred\n'),
      // accepted by add_decision 20 days ago, never confirmed: reported
      '.contextia/system/rationale/DEC-002.md': rec('DEC-002', 'status: accepted\ncreated: 2026-11-07\nconfidence: ai_inferred\n'),
      // young enough, confirmed, rejected, or a person's: not reported
      '.contextia/system/rationale/DEC-003.md': rec('DEC-003', 'status: proposed\ncreated: 2026-11-20\nconfidence: ai_inferred\n'),
      '.contextia/system/rationale/DEC-004.md': rec('DEC-004', 'status: accepted\ncreated: 2026-01-01\nconfidence: owner_confirmed\n'),
      '.contextia/system/rationale/DEC-005.md': rec('DEC-005', 'status: rejected\ncreated: 2026-01-01\nconfidence: ai_inferred\n'),
      '.contextia/system/rationale/DEC-006.md': rec('DEC-006', 'status: proposed\ncreated: 2026-01-01\n'),
    });
    repo.commit('records');
    const f = await info(repo);
    expect(f.map((x) => [x.id, x.severity])).toEqual([
      ['DEC-001', 'info'],
      ['DEC-002', 'info'],
    ]);
    expect(f[0]!.message).toBe('DEC-001 was written by an agent (session s-1) 30 days ago and no one has confirmed it (more than 14): git ctx confirm DEC-001, or git ctx reject DEC-001');
    expect(f[0]!.message).not.toMatch(/confidence|ai_inferred/);
    expect(f[0]).toMatchObject({ file: '.contextia/system/rationale/DEC-001.md', line: 5 });

    repo.commit('longer', { '.contextia/config.yaml': 'check:\n  proposal_unconfirmed_days: 25\n' });
    expect((await info(repo)).map((x) => x.id)).toEqual(['DEC-001']);
  });

  it('reads the date of an ADR proposal from the provenance sidecar', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n',
      'docs/adr/0001-webhooks.md': '# 1. Verify webhooks\n\nDate: 2026-10-01\n\n## Status\n\nProposed\n\n## Context\n\nx\n',
      '.contextia/provenance.jsonl': '{"id":"ADR-0001","source":"ai_chat","confidence":"ai_inferred","date":"2026-10-01"}\n',
    });
    repo.commit('adr');
    expect((await info(repo)).map((x) => [x.id, x.file])).toEqual([['ADR-0001', 'docs/adr/0001-webhooks.md']]);
  });
});
