import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { codeWordsOf } from '../../src/retrieve/code-words.js';
import { nearnessSignals } from '../../src/retrieve/signals.js';
import { terms } from '../../src/retrieve/text.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { CACHE_REL } from '../helpers/cache.js';

const IDEM = '// keeps retried refunds idempotent: the provider sees the same key twice\nmodule.exports = function refundKey(transaction) {\n  return transaction.id;\n};\n';

/**
 * A payments integration shaped like the trial: an adr-tools folder, a folder of
 * payment handlers whose files all share handler/payment/provider words, and the same 4-line
 * file saved twice, once among the handlers and once in a scratch folder (issue 30 item 2).
 */
function fixture() {
  const files: Record<string, string> = {
    '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
    'doc/adr/0001-record-architecture-decisions.md': '# 1. Record architecture decisions\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to record the architectural decisions made on this project.\n\n## Decision\n\nWe will use Architecture Decision Records.\n',
    'doc/adr/0002-one-payment-handler-per-provider.md': '# 2. One payment handler per provider\n\n## Status\n\nAccepted\n\n## Context\n\nEach payment provider has its own API; the payment handlers grew into one module.\n\n## Decision\n\nEvery payment provider gets its own payment handler module in the handlers folder, exporting a handler that maps the provider response to a payment.\n\n## Consequences\n\nA new provider means a new handler file; `src/payments/handlers/stripe.js` was the first.\n',
    'doc/adr/0003-idempotent-refunds.md': '# 3. Idempotent refunds\n\n## Status\n\nAccepted\n\n## Context\n\nRefunds are retried when the provider times out, and a retried refund was paid twice.\n\n## Decision\n\nWe picked `transaction.id` as the idempotency key sent with every refund, so a retried refund is recognised by the provider.\n\n## Consequences\n\nRefund requests without a transaction cannot be retried safely.\n',
    'src/payments/handlers/idem.js': IDEM,
    'tmpx/idem.js': IDEM,
  };
  for (const p of ['stripe', 'adyen', 'paypal', 'klarna', 'mollie', 'braintree', 'square', 'worldpay', 'checkout', 'wise', 'revolut', 'sepa', 'ideal', 'sofort', 'giropay', 'bancontact', 'eps', 'p24', 'alipay', 'wechat', 'affirm', 'afterpay']) {
    files[`src/payments/handlers/${p}.js`] =
      `// payment handler for ${p}: maps the provider response to a payment\nconst { toPayment } = require('../payment');\nmodule.exports = async function handler(request, provider) {\n  const response = await provider.${p}Client.charge(request.amount);\n  return toPayment(response, '${p}');\n};\n`;
  }
  const repo = makeRepo(files);
  repo.commit('fixture');
  return repo;
}

async function open(dir: string) {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
  const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
  return { snapshot, set };
}

describe('code as code (issue 30 item 2, DEC-055)', () => {
  it('counts how many code files use a word: the handlers folder words are everywhere, the idempotency words are not', async () => {
    const repo = fixture();
    const { snapshot } = await open(repo.dir);
    try {
      const cw = (await codeWordsOf(snapshot))!;
      expect(cw.files).toBe(24);
      expect(cw.df[terms('handler')[0]!]).toBeGreaterThanOrEqual(22);
      expect(cw.df[terms('payment')[0]!]).toBeGreaterThanOrEqual(22);
      expect(cw.df[terms('idempotent')[0]!] ?? 0).toBeLessThanOrEqual(2);
    } finally {
      snapshot.close();
    }
  });

  it('the same 4 lines find the record whose Decision says so first, in whatever folder they are', async () => {
    const repo = fixture();
    const { snapshot, set } = await open(repo.dir);
    try {
      const among = await retrieveForPlace({ snapshot, set, target: { path: 'src/payments/handlers/idem.js' }, neighbours: false, staleness: false });
      const scratch = await retrieveForPlace({ snapshot, set, target: { path: 'tmpx/idem.js' }, neighbours: false, staleness: false });
      expect(among.results[0]?.id).toBe('ADR-0003');
      expect(scratch.results[0]?.id).toBe('ADR-0003');
      const sym = await retrieveForPlace({ snapshot, set, target: { path: 'src/payments/handlers/idem.js', line: 3 }, neighbours: false, staleness: false });
      expect(sym.results[0]?.id).toBe('ADR-0003');
    } finally {
      snapshot.close();
    }
  });

  it('are kept per state of the git index: editing the file in focus does not count the tree again, staging a change does', () => {
    const repo = fixture();
    const file = 'src/payments/handlers/idem.js';
    const cache = path.join(repo.dir, `${CACHE_REL}/code-words.json`);
    const ask = () => {
      const r = runCli(['for', file, '--json'], { cwd: repo.dir });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { results: { id: string }[] };
    };
    expect(ask().results[0]?.id).toBe('ADR-0003');
    const counted = readFileSync(cache);
    const mtime = statSync(cache).mtimeMs;
    // an agent edits the file it reads: the same counts answer, the answer still reads the edit
    appendFileSync(path.join(repo.dir, file), '// the refund key is the transaction id\n');
    expect(ask().results[0]?.id).toBe('ADR-0003');
    expect(readFileSync(cache).equals(counted)).toBe(true);
    expect(statSync(cache).mtimeMs).toBe(mtime);
    // staged, the index is another state: counted again
    repo.git('add', file);
    ask();
    expect(readFileSync(cache).equals(counted)).toBe(false);
  });

  it('are counted once per snapshot of a work tree, which has no state to keep them by: a check searches once per draft-like record', async () => {
    const repo = fixture();
    const { snapshot } = await open(repo.dir);
    try {
      const first = await codeWordsOf(snapshot);
      expect(first?.files).toBe(24);
      expect(existsSync(path.join(repo.dir, `${CACHE_REL}/code-words.json`))).toBe(false);
      // the second search of the same tree state reads the first count, not the files again
      writeFileSync(path.join(repo.dir, 'src/payments/handlers/zelle.js'), IDEM);
      expect(await codeWordsOf(snapshot)).toBe(first);
    } finally {
      snapshot.close();
    }
    // a new snapshot is a new tree state: counted again, with the new file
    const again = await open(repo.dir);
    try {
      expect((await codeWordsOf(again.snapshot))?.files).toBe(25);
    } finally {
      again.snapshot.close();
    }
  });

  it('two files that share only the top folder are not near', async () => {
    const repo = fixture();
    const { snapshot, set } = await open(repo.dir);
    try {
      // ADR-0002 mentions src/payments/handlers/stripe.js: near to another file below src/payments, not to one that shares only src/
      expect(nearnessSignals(set, 'src/payments/refunds/x.js').has('ADR-0002')).toBe(true);
      expect(nearnessSignals(set, 'src/auth/login.js').has('ADR-0002')).toBe(false);
    } finally {
      snapshot.close();
    }
  });
});
