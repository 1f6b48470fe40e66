import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * A folder whose records carry frontmatter with their file name as `id:`, the date under
 * `created:`, and the status both in frontmatter and in a `## Status` section. A new record
 * written there follows all three, so it reads like its neighbours and gets an id of their kind.
 */
const record = (stem: string, title: string, status: string) =>
  `---\nid: ${stem}\ntitle: "${title}"\nstatus: ${status}\nowners:\n  - "Platform team"\ncreated: 2024-04-0${Number(stem.slice(0, 4))}\n---\n\n# ${Number(stem.slice(0, 4))}. ${title}\n\nDate: 2024-04-0${Number(stem.slice(0, 4))}\n\n## Status\n\n${status}\n\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n\n## Consequences\n\nThen.\n`;

describe('new decision in a folder of records with frontmatter ids', () => {
  it('writes id: from its file name, the date under created:, and the status in the Status section too', () => {
    const repo = makeRepo({
      'docs/adr/0001-record-decisions.md': record('0001-record-decisions', 'Record decisions', 'Accepted'),
      'docs/adr/0002-queue-per-tenant.md': record('0002-queue-per-tenant', 'One queue per tenant', 'Accepted'),
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', 'Batch outgoing messages', '--date', '2024-05-01'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, 'docs/adr/0003-batch-outgoing-messages.md'), 'utf8');
    expect(text).toMatch(/^---\nid: 0003-batch-outgoing-messages\ntitle: "Batch outgoing messages"\nstatus: Proposed\nowners: \[\]\ncreated: 2024-05-01\n---\n/);
    expect(text).not.toMatch(/^date:/m);
    expect(text).toContain('## Status\n\nProposed\n');
    repo.commit('new record');
    const list = runCli(['list'], { cwd: repo.dir });
    expect(list.stdout).toContain('0003-batch-outgoing-messages');
    const dry = runCli(['new', 'decision', 'Compress payloads', '--dry-run'], { cwd: repo.dir });
    expect(dry.stdout + dry.stderr).toContain('would create 0004-compress-payloads as docs/adr/0004-compress-payloads.md');
  });
});
