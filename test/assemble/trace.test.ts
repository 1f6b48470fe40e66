import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { traceByPaths } from '../../src/retrieve/trace.js';
import { makeRepo } from '../helpers/git-repo.js';
import { art } from './helpers.js';

async function setOf(dir: string) {
  const snapshot = await openSnapshot({ cwd: dir });
  const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
  snapshot.close();
  return set;
}

/** The example's shape, fixed here so that additions to .contextia-example cannot move it. */
function billingRepo() {
  const repo = makeRepo({
    '.contextia/work/tasks/TASK-042.md': art({ id: 'TASK-042', type: 'task', title: 'T', paths: '[src/billing/invoice/**]' }),
    '.contextia/system/specs/SPEC-BILLING-001.md': art({ id: 'SPEC-BILLING-001', type: 'spec', title: 'Invoice generation', paths: '[src/billing/invoice/**]' }),
    '.contextia/system/specs/SPEC-CURRENCY-001.md': art({ id: 'SPEC-CURRENCY-001', type: 'spec', title: 'Currency', paths: '[src/billing/currency/**]' }),
    '.contextia/system/rationale/DEC-BILLING-001.md': art({ id: 'DEC-BILLING-001', type: 'decision', title: 'Rounding', paths: '[src/billing/invoice/totals.ts]' }),
    '.contextia/system/rationale/DEC-CURRENCY-001.md': art({ id: 'DEC-CURRENCY-001', type: 'decision', title: 'ECB', paths: '[src/billing/currency/rates.ts]' }),
    '.contextia/system/norms/NORM-ERROR-001.md': art({ id: 'NORM-ERROR-001', type: 'norm', title: 'Errors' }),
  });
  repo.commit('init');
  return repo;
}

describe('traceByPaths', () => {
  it('lists what governs a file, most specific first, and says how each matched', async () => {
    const set = await setOf(billingRepo().dir);
    const m = traceByPaths(set, 'src/billing/invoice/totals.ts');
    expect(m.map((x) => [x.id, x.how, x.pattern])).toEqual([
      ['DEC-BILLING-001', 'exact', 'src/billing/invoice/totals.ts'],
      ['SPEC-BILLING-001', 'glob', 'src/billing/invoice/**'],
    ]);
    expect(m[1]!.explanation).toBe('glob src/billing/invoice/** (under src/billing/invoice)');
    // tasks are work, not governance: left out unless asked for
    expect(traceByPaths(set, 'src/billing/invoice/totals.ts', { types: ['task'] }).map((x) => x.id)).toEqual(['TASK-042']);
    expect(traceByPaths(set, './src/billing/currency/rates.ts').map((x) => x.id)).toEqual(['DEC-CURRENCY-001', 'SPEC-CURRENCY-001']);
    expect(traceByPaths(set, 'src/other/file.ts')).toEqual([]);
  });

  it('a directory is governed by what covers it, then by what names things inside it', async () => {
    const set = await setOf(billingRepo().dir);
    const m = traceByPaths(set, 'src/billing');
    expect(m.every((x) => x.how === 'contains')).toBe(true);
    // deeper literal base = nearer; equal depth: kind order (spec before decision), then id
    expect(m.map((x) => x.id)).toEqual(['DEC-BILLING-001', 'DEC-CURRENCY-001', 'SPEC-BILLING-001', 'SPEC-CURRENCY-001']);
    expect(traceByPaths(set, 'src/billing/invoice').map((x) => [x.id, x.how])).toEqual([
      ['SPEC-BILLING-001', 'glob'],
      ['DEC-BILLING-001', 'contains'],
    ]);
  });

  it('directory entries and globs: the narrower pattern under the same base first; negated patterns exclude', async () => {
    const repo = makeRepo({
      '.contextia/system/specs/SPEC-ROOT.md': art({ id: 'SPEC-ROOT', type: 'spec', title: 'Root', paths: '["src/**"]' }),
      '.contextia/system/specs/SPEC-DIR.md': art({ id: 'SPEC-DIR', type: 'spec', title: 'Dir', paths: '["src/api/"]' }),
      '.contextia/system/norms/NORM-TS.md': art({ id: 'NORM-TS', type: 'norm', title: 'TS', paths: '["src/api/**/*.ts", "!src/api/gen/**"]' }),
    });
    repo.commit('init');
    const set = await setOf(repo.dir);
    expect(traceByPaths(set, 'src/api/v1/users.ts').map((x) => [x.id, x.how])).toEqual([
      ['NORM-TS', 'glob'],
      ['SPEC-DIR', 'directory'],
      ['SPEC-ROOT', 'glob'],
    ]);
    expect(traceByPaths(set, 'src/api/gen/client.ts').map((x) => x.id)).toEqual(['SPEC-DIR', 'SPEC-ROOT']);
  });
});
