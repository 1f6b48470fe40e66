import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

const record = (n: number, slug: string, title: string, status: string, extra = '') =>
  `---\ntitle: "ADR ${String(n).padStart(4, '0')}: ${title}"\nsync_org: acme\nsync_source_path: docs/adr/${String(n).padStart(4, '0')}-${slug}.md\n---\n\n# ADR ${String(n).padStart(4, '0')}: ${title}\n\nDate: 2025-0${n}-01\n\n## Status\n\n${status}\n\n## Context\n\nWhy ${n}.\n\n## Decision\n\nWhat ${n}.\n${extra}\n## Consequences\n\nThen ${n}.\n`;

/**
 * trials26, gardenlinux/gardenlinux: every record has frontmatter a docs sync tool reads (title,
 * source paths; no status, no date) above an adr-tools body. A new record got `status:` and
 * `date:` in frontmatter the folder never writes, an empty `## Status` section, "(madr)", and
 * the numbered sections the newest record shares only with the record it rewrote.
 */
describe('a new record in a folder whose frontmatter holds no status', () => {
  it('writes its status in the Status section, its title as the folder does, and only the common sections', () => {
    const twin = '\n## 2. Upload Layout\n\nBuckets.\n\n## 3. Ownership\n\nThe builder.\n';
    const repo = makeRepo({
      'docs/adr/0001-record-decisions.md': record(1, 'record-decisions', 'Record decisions', 'Accepted'),
      'docs/adr/0002-pin-tools.md': record(2, 'pin-tools', 'Pin tools', 'Accepted'),
      'docs/adr/0003-upload-contract.md': record(3, 'upload-contract', 'Upload contract', 'Superseded by [ADR 6](./0006-upload-contract.md)', twin),
      'docs/adr/0004-timers.md': record(4, 'timers', 'Timers', 'Accepted'),
      'docs/adr/0005-naming.md': record(5, 'naming', 'Naming', 'Accepted'),
      'docs/adr/0006-upload-contract.md': record(6, 'upload-contract', 'Upload contract', 'Accepted\n\nSupersedes [ADR 3](./0003-upload-contract.md)', twin),
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', '--title', 'Compress images with zstd', '--dry-run', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { id: string; style: string; text: string };
    expect(out.id).toBe('ADR-0007');
    expect(out.style).toBe('nygard');
    expect(out.text).toBe('---\ntitle: "ADR 0007: Compress images with zstd"\n---\n\n# ADR 0007: Compress images with zstd\n\nDate: ' + /Date: (\S+)/.exec(out.text)![1] + '\n\n## Status\n\nProposed\n\n## Context\n\n## Decision\n\n## Consequences\n');
  });
});
