import { describe, expect, it } from 'vitest';
import { buildCodeIndex } from '../../src/code/index.js';
import { codeGraph } from '../../src/code/graph/walk.js';
import { defaultConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { makeRepo } from '../helpers/git-repo.js';
import { fixtureFiles } from './helpers.js';

describe('one call graph, two strategies', () => {
  it('finds the same TypeScript callers through the type checker (precise) and through the graph index', async () => {
    const repo = makeRepo({ ...fixtureFiles('code-annotations'), 'app/orders.py': 'def place():\n    return 1\n' });
    repo.commit('fixture');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const index = await buildCodeIndex(snapshot, defaultConfig(), { cache: false });
      const ask = { index, path: 'src/billing/invoice.ts', symbol: 'roundBankers', callers: true };
      const precise = await codeGraph(ask);
      const byIndex = await codeGraph({ ...ask, strategy: 'index' });
      const callers = (g: typeof precise) => g.nodes.filter((n) => n.distance < 0).map((n) => n.id);
      // TS/JS goes through the checker unless asked otherwise; it loads only the files it needs
      expect(precise.loadedFiles).toBeGreaterThan(0);
      expect(byIndex.loadedFiles).toBe(0);
      expect(callers(precise)).toContain('src/billing/invoice.ts#InvoiceGenerator.generate');
      expect(callers(byIndex)).toContain('src/billing/invoice.ts#InvoiceGenerator.generate');
      expect(byIndex.root).toBe(precise.root);
      // the checker reads TypeScript and JavaScript only
      await expect(codeGraph({ index, path: 'app/orders.py', symbol: 'place', strategy: 'precise' })).rejects.toThrow(/precise strategy reads TypeScript/);
    } finally {
      snapshot.close();
    }
  });
});
