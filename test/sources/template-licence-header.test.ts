import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * A MADR folder kept REUSE-compliant: every record and the template open with an SPDX licence
 * header in an HTML comment, then the frontmatter. A record written from that template keeps
 * the header and gets its status and date in the frontmatter, so it has a lifecycle.
 */
const HEADER = '<!--\nSPDX-FileCopyrightText: 2023 Example Team <team@example.org>\n\nSPDX-License-Identifier: CC0-1.0\n-->\n\n';

describe('a template with a licence header before its frontmatter', () => {
  it('keeps the header and fills the frontmatter status and date; the new record reads as proposed', () => {
    const repo = makeRepo({
      'docs/decisions/adr-template.md': `${HEADER}---\n# optional elements\nstatus: {proposed | rejected | accepted}\ndate: {YYYY-MM-DD when the decision was last updated}\n---\n# {short title of solved problem and solution}\n\n## Context and Problem Statement\n\n{Describe the context.}\n\n## Decision Outcome\n\nChosen option: "{title of option 1}"\n`,
      'docs/decisions/01-use-websockets.md': `${HEADER}---\nstatus: accepted\ndate: 2023-09-01\n---\n# Use websockets between peers\n\n## Context and Problem Statement\n\nPeers talk a lot.\n\n## Decision Outcome\n\nChosen option: "websockets".\n`,
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', 'Compress messages between peers', '--date', '2024-02-02'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, 'docs/decisions/02-compress-messages-between-peers.md'), 'utf8');
    expect(text.startsWith(`${HEADER}---\n# optional elements\nstatus: proposed\ndate: 2024-02-02\n---\n# Compress messages between peers\n`)).toBe(true);
    repo.commit('new record');
    const show = runCli(['show', '2', '--depth', 'meta'], { cwd: repo.dir });
    expect(show.stdout).toContain('status: proposed');
    expect(show.stdout).toContain('date: 2024-02-02');
  });

  it('without a template, a folder of such records still gets a MADR record, with the header when every record shares it', () => {
    const record = (title: string) => `${HEADER}---\nstatus: accepted\ndate: 2023-09-01\n---\n# ${title}\n\n## Context and Problem Statement\n\nWhy.\n\n## Decision Outcome\n\nChosen option: "it".\n`;
    const repo = makeRepo({
      'docs/decisions/01-use-websockets.md': record('Use websockets between peers'),
      'docs/decisions/02-sign-messages.md': record('Sign every message'),
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', 'Compress messages between peers', '--date', '2024-02-02'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, 'docs/decisions/03-compress-messages-between-peers.md'), 'utf8');
    expect(text.startsWith(`${HEADER}---\nstatus: proposed\ndate: 2024-02-02\n---\n# Compress messages between peers\n`)).toBe(true);
    expect(text).toContain('## Decision Outcome');
  });
});
