import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * A record that names the records folder itself ("the other records under `docs/adr`") beside
 * real code: the folder is where the records live, not code the record is about. Read as a
 * mention, it made every record and image in the folder code that record governs.
 */
const adr = (n: number, title: string, body: string) => `# ${n}. ${title}\n\nDate: 2024-02-0${n}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\nWe do it.\n`;

describe('a mention of the records folder', () => {
  it('is not code: the record keeps its real mentions, and impact lists no record file or image of the folder as code', async () => {
    const repo = makeRepo({
      'docs/adr/0001-record-decisions.md': adr(1, 'Record decisions', 'We keep records.'),
      'docs/adr/0002-sign-webhooks.md': adr(2, 'Sign webhooks', 'Senders sign each webhook; `src/hooks/verify.ts` checks it. See the flow: ![flow](images/flow.png)'),
      'docs/adr/0003-mutual-tls.md': adr(3, 'Mutual TLS to the broker', 'Read the other records under `docs/adr` first. The client lives in `src/broker/client.ts`.'),
      'docs/adr/images/flow.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      'src/hooks/verify.ts': 'export const verify = () => true;\n',
      'src/broker/client.ts': 'export const connect = () => 1;\n',
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      expect(set.byId.get('ADR-0003')!.mentions?.map((m) => m.target)).toEqual(['src/broker/client.ts']);
      expect(set.byId.get('ADR-0002')!.mentions?.map((m) => m.target)).toEqual(expect.arrayContaining(['src/hooks/verify.ts', 'docs/adr/images/flow.png']));
    } finally {
      snapshot.close();
    }
    const impact = runCli(['impact', 'ADR-0003'], { cwd: repo.dir });
    expect(impact.code, impact.stderr).toBe(0);
    expect(impact.stdout).toContain('src/broker/client.ts');
    expect(impact.stdout).not.toContain('flow.png');
    expect(impact.stdout).not.toContain('0001-record-decisions.md');
  });
});
