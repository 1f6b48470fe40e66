import { describe, expect, it } from 'vitest';
import { parseAdr } from '../../src/artifacts/sources/adr.js';

/**
 * "Status" written alone on a line with its value on the next, without the underline that would
 * make it a heading (a reStructuredText record whose author forgot the underline, or a markdown
 * record in plain lines): the value is the status.
 */
const opts = { prefix: 'ADR-', type: 'decision' };

describe('a Status label line with its value on the next line', () => {
  it('reads the value under a bare "Status" line in rst and markdown', () => {
    const rst = 'Report learner progress per course\n##################################\n\nStatus\n**Draft**\n\nContext\n*******\n\nSupport needs it.\n\nDecision\n********\n\nAdd an endpoint.\n';
    expect(parseAdr('docs/decisions/0007-progress-endpoint.rst', Buffer.from(rst), opts).artifact!.status).toBe('Draft');
    const md = '# Cache rendered pages\n\nStatus\nAccepted\n\n## Context\n\nPages are slow.\n';
    expect(parseAdr('docs/adr/0003-cache-pages.md', Buffer.from(md), opts).artifact!.status).toBe('Accepted');
  });

  it('leaves a prose line after "Status" alone, and a real Status heading keeps its own reading', () => {
    const prose = '# Cache rendered pages\n\nStatus\nthe team has not yet agreed on how long pages should be kept around\n\n## Context\n\nPages are slow.\n';
    expect(parseAdr('docs/adr/0003-cache-pages.md', Buffer.from(prose), opts).artifact!.status).toBeUndefined();
    const heading = 'Cache rendered pages\n====================\n\nStatus\n------\n\nSuperseded\n\nContext\n-------\n\nSlow.\n';
    expect(parseAdr('docs/decisions/0004-cache.rst', Buffer.from(heading), opts).artifact!.status).toBe('Superseded');
  });
});
