import { describe, expect, it } from 'vitest';
import { learnShape, renderShape } from '../../src/artifacts/sources/record-shape.js';

const fill = { number: '17', title: 'Cache the organisations list', status: 'Proposed', date: '2026-01-01' };

describe('the shape of a folder’s newest record', () => {
  it('keeps the record’s own parts, not the subsections of what it discussed; a Status placed late stays late', () => {
    const model = '# 16. Publishing times\n\nDate: 2020-03-20\n\n## Context\n\nWhy.\n\n### Problems identified\n\n#### 1. Accurate times\n\nText.\n\n### Approaches considered\n\n## Decision\n\nWe store them.\n\n## Status\n\nAccepted\n\n## Consequences\n\nMore data.\n';
    const shape = learnShape(model)!;
    expect(shape.sections.map((s) => s.title)).toEqual(['Context', 'Decision', 'Status', 'Consequences']);
    expect(renderShape(shape, { ...fill, decision: 'Read them from Redis.' })).toBe('# 17. Cache the organisations list\n\nDate: 2026-01-01\n\n## Context\n\n## Decision\n\nRead them from Redis.\n\n## Status\n\nProposed\n\n## Consequences\n');
  });

  it('copies MADR 2 bullets and lower-case statuses, keeps Consequences under the outcome, and puts back a missing Context', () => {
    const model = '# Use Redis for sessions\n\n* Status: accepted\n* Deciders: web team\n* Date: 2021-02-03\n\n## Decision Outcome\n\nChosen option: "Redis".\n\n### Consequences\n\n* Good, because restarts keep sessions.\n';
    const shape = learnShape(model)!;
    expect(shape.style).toBe('madr');
    expect(renderShape(shape, { ...fill, context: 'Lists load slowly.' })).toBe('# Cache the organisations list\n\n* Status: proposed\n* Date: 2026-01-01\n\n## Context and Problem Statement\n\nLists load slowly.\n\n## Decision Outcome\n\n### Consequences\n');
  });

  it('numbers the title as the model does; a record with nowhere to write a status is no model', () => {
    const named = learnShape('# ADR-007: Use Kafka\n\n**Status:** Accepted\n\n## Decision\n\nKafka.\n')!;
    expect(renderShape(named, { ...fill, number: '0017' }).split('\n')[0]).toBe('# ADR-0017: Cache the organisations list');
    expect(named.titlePadded).toBe(true);
    expect(learnShape('# A record that states no status\n\n## Context\n\nNobody wrote one.\n')).toBeUndefined();
  });

  it('puts a missing Consequences after the outcome and its subsections, not under a trailing Links section', () => {
    // a MADR 2 model that ends on Links and wrote no consequences of its own
    const madr = '# Queue payment events\n\n* Status: accepted\n* Date: 2021-04-01\n\n## Context and Problem Statement\n\nEvents get lost.\n\n## Decision Drivers\n\n* durability\n\n## Considered Options\n\n* a queue\n\n## Decision Outcome\n\nChosen option: "a queue".\n\n## Links\n\n* the design notes\n';
    const text = renderShape(learnShape(madr)!, { ...fill, consequences: 'One more service to run.' });
    expect(text.split('\n').filter((l) => l.startsWith('#'))).toEqual([
      '# Cache the organisations list',
      '## Context and Problem Statement',
      '## Decision Drivers',
      '## Considered Options',
      '## Decision Outcome',
      '### Consequences',
      '## Links',
    ]);
    expect(text).toContain('### Consequences\n\nOne more service to run.\n');
    // Nygard with a Notes section after the decision: Consequences before it
    const nygard = '# 3. Use a queue\n\nDate: 2021-04-01\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\nA queue.\n\n## Notes\n\nSee the wiki.\n';
    expect(learnShape(nygard)!.sections.map((x) => x.title)).toEqual(['Status', 'Context', 'Decision', 'Consequences', 'Notes']);
  });

  it('learns frontmatter keys as templates: the number, empty lists, site keys; one record\'s values are left out (DEC-107)', () => {
    const model = '---\nid: 12\nstatus: accepted\nnav_order: 12\nparent: Decisions\ndeciders: Ana and Bo\ncategories:\n  - storage\n---\n# Keep sessions in Redis\n\n## Decision Outcome\n\nRedis.\n';
    const shape = learnShape(model, { number: '012' })!;
    expect(shape.frontmatter).toEqual(['id: {n}', 'status: {status}', 'date: {date}', 'nav_order: {n}', 'parent: Decisions', 'categories: []']);
    const text = renderShape(shape, { ...fill, fileNumber: '017' });
    expect(text.split('---')[1]).toBe('\nid: 17\nstatus: proposed\ndate: 2026-01-01\nnav_order: 17\nparent: Decisions\ncategories: []\n');
    // without other records to compare, no line under the title is taken for the folder's
    expect(learnShape('---\nstatus: Accepted\n---\n# A\n\nA line.\n\n## Decision\n\nX.\n')!.preamble).toBeUndefined();
  });
});

