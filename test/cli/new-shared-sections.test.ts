import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const record = (n: string, title: string, extra: string) =>
  `# ADR-${n}: ${title}\n\n**Status:** Accepted\n**Date:** 2025-03-0${n.slice(-1)}\n\n## Context\n\nSomething needed choosing.\n\n## Decision\n\nWe chose.\n\n## Consequences\n\nIt follows.\n\n## Alternatives\n\nOthers were weighed.\n${extra}`;

/** `new` copies the newest record's shape, but not the sections only that record has. */
describe('git ctx new in a folder whose newest record discusses its own topics', () => {
  it('keeps the sections the folder shares and drops the newest record\u2019s own', () => {
    const repo = makeRepo({
      'notes/adr/001-store-sessions-in-redis.md': record('001', 'Store sessions in Redis', ''),
      'notes/adr/002-compress-thumbnails.md': record('002', 'Compress thumbnails', ''),
      'notes/adr/003-shrink-image-cache.md': record('003', 'Shrink the image cache', '\n## Disk Usage Measured\n\nHalf of before.\n\n## Latency Figures\n\nUnchanged.\n'),
    });
    repo.commit('three records');
    const r = runCli(['new', 'decision', 'Rotate the signing keys'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    const text = readFileSync(path.join(repo.dir, 'notes/adr/004-rotate-the-signing-keys.md'), 'utf8');
    expect(text).toMatch(/^# ADR-004: Rotate the signing keys/);
    expect(text).toContain('**Status:** Proposed');
    for (const kept of ['## Context', '## Decision', '## Consequences', '## Alternatives']) expect(text).toContain(kept);
    expect(text).not.toContain('Disk Usage Measured');
    expect(text).not.toContain('Latency Figures');
  });

  it('a folder of one record keeps all of its sections: there is nothing to compare with', () => {
    const repo = makeRepo({ 'notes/adr/001-shrink-image-cache.md': record('001', 'Shrink the image cache', '\n## Disk Usage Measured\n\nHalf.\n') });
    repo.commit('one record');
    expect(runCli(['new', 'decision', 'Rotate the signing keys'], { cwd: repo.dir }).code).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'notes/adr/002-rotate-the-signing-keys.md'), 'utf8')).toContain('## Disk Usage Measured');
  });
});
