import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { makeRepo } from '../helpers/git-repo.js';

const rec = (id: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${id} title\nstatus: accepted\n---\n\n# ${id}\n\n${body}\n`;

/** Slot 1 walks the default code graph (src/code/graph) for languages other than TypeScript. */
describe('retrieval walks the multi-language code graph', () => {
  it('finds the decision annotating a Python function from its caller, and a Go package from its importer', async () => {
    const repo = makeRepo({
      'pay/ledger.py': ['# @decision DEC-LEDGER', 'def post_entry(amount):', '    return amount', ''].join('\n'),
      'pay/checkout.py': ['from pay.ledger import post_entry', '', 'def checkout(cart):', '    return post_entry(sum(cart))', ''].join('\n'),
      'pay/__init__.py': '',
      'go.mod': 'module example.com/shop\n\ngo 1.21\n',
      'retry/retry.go': ['// @decision DEC-RETRY', 'package retry', '', 'func Backoff(n int) int { return n * 2 }', ''].join('\n'),
      'cmd/main.go': ['package main', '', 'import "example.com/shop/retry"', '', 'func run() int { return retry.Backoff(3) }', ''].join('\n'),
      '.contextia/system/rationale/DEC-LEDGER.md': rec('DEC-LEDGER', 'Ledger entries are posted in integer cents.'),
      '.contextia/system/rationale/DEC-RETRY.md': rec('DEC-RETRY', 'Retries back off exponentially.'),
    });
    repo.commit('shop');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const py = await retrieveForPlace({ snapshot, set, target: { path: 'pay/checkout.py', symbol: 'checkout' }, staleness: false });
      const ledger = py.results.find((r) => r.id === 'DEC-LEDGER');
      expect(ledger?.slot).toBe('declared');
      expect(JSON.stringify(ledger?.why)).toContain('pay/ledger.py');
      const go = await retrieveForPlace({ snapshot, set, target: { path: 'cmd/main.go' }, staleness: false });
      const retry = go.results.find((r) => r.id === 'DEC-RETRY');
      expect(retry?.slot).toBe('declared');
      expect(JSON.stringify(retry?.why)).toContain('retry/retry.go');
    } finally {
      snapshot.close();
    }
  });
});
