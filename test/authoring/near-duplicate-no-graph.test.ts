import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

// check's near-duplicate rule judges each record as a draft through search, fused band only
// (caps declared 0, links 0). A record naming a code file made that search a question about the
// file, whose slot 1 walked the code graph: on a cold cache the whole repository's graph was
// built (1.2 s of a 1.6 s first check on a 500-file Rust tree) for hits no slot could show.
const record = (id: string, title: string, decision: string) =>
  `---\nid: ${id}\ntype: decision\nstatus: accepted\ntitle: ${title}\n---\n# ${title}\n\n## Decision\n\n${decision}\n`;
const DECISION = 'User sessions live in Redis with a thirty-minute sliding expiry, written by src/sessions/store.py, instead of process memory.';

describe('decision-near-duplicate on records that name a code file', () => {
  it('finds the restatement and builds no code graph for it', () => {
    const repo = makeRepo({
      'decisions/DEC-001.md': record('DEC-001', 'Cache sessions in Redis', DECISION),
      'decisions/DEC-002.md': record('DEC-002', 'Keep user sessions in Redis', DECISION.replace('User sessions live', 'Sessions of users are kept')),
      'decisions/DEC-003.md': record('DEC-003', 'Trace requests with OpenTelemetry', 'Every request carries an OpenTelemetry trace exported to the collector.'),
      'src/sessions/store.py': 'from .expiry import sliding\n\n\ndef save(session):\n    return sliding(session)\n',
      'src/sessions/expiry.py': 'def sliding(session):\n    return session\n',
      'src/app.py': 'from sessions.store import save\n\n\ndef handle(request):\n    return save(request)\n',
    });
    repo.commit('records and code');
    const r = runCli(['check', '--format', 'json'], { cwd: repo.dir });
    const found = (JSON.parse(r.stdout) as { findings: { rule: string; id: string }[] }).findings.filter((f) => f.rule === 'decision-near-duplicate');
    expect(found).toHaveLength(1);
    const cache = path.join(repo.dir, CACHE_REL);
    expect(existsSync(cache)).toBe(true);
    expect(readdirSync(cache).filter((f) => f.startsWith('code-graph'))).toEqual([]);
  });
});
