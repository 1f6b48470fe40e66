import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { codeWordsOf, distinctWords } from '../../src/retrieve/code-words.js';
import { terms } from '../../src/retrieve/text.js';
import { makeRepo } from '../helpers/git-repo.js';

/** A Symfony-style PHP file: the licence-free header every file of such a project has, then its class. */
const php = (ns: string, cls: string, body: string) => `<?php\n\ndeclare(strict_types=1);\n\nnamespace Acme\\Bundle\\${ns};\n\nfinal class ${cls}\n{\n${body}}\n`;

/**
 * A PHP shop shaped like Sylius (DEC-087): every code file declares strict types, a namespace
 * under the vendor's name and a final class, all below one top folder `shop-rendering/` whose
 * words no code uses. One record lays down those conventions (it speaks every file's words);
 * another decides how money is rounded, which one calculator does.
 */
function fixture() {
  const files: Record<string, string> = {
    '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
    'doc/adr/0001-final-classes-and-strict-types.md':
      '# 1. Final classes and strict types in every Acme bundle\n\n## Status\n\nAccepted\n\n## Context\n\nAcme bundle classes were extended in ways nobody supported, and loose types hid bugs in public functions.\n\n## Decision\n\nEvery class of an Acme bundle is a final class, every PHP file declares strict_types, and the namespace of a class follows its bundle (Acme\\Bundle\\CoreBundle). Public functions return declared types.\n\n## Consequences\n\nA bundle that needs another behaviour decorates a final class instead of extending it.\n',
    'doc/adr/0002-round-money-half-to-even.md':
      '# 2. Round money half to even\n\n## Status\n\nAccepted\n\n## Context\n\nOrder totals differed by a cent between the shop and the accounting export.\n\n## Decision\n\nAmounts are rounded half to even (bankers rounding) to the precision of their currency, once, when a total is computed.\n\n## Consequences\n\nLine amounts keep their full precision until the total.\n',
    'shop-rendering/src/Acme/Bundle/CoreBundle/Calculator/PriceCalculator.php': php(
      'CoreBundle\\Calculator',
      'PriceCalculator',
      '    /** The total of the lines, rounded half to even (bankers rounding) to the precision of the currency. */\n    public function calculate(array $lines, string $currency): int\n    {\n        $sum = array_sum($lines);\n\n        return $this->roundHalfEven($sum, $this->precisionOf($currency));\n    }\n',
    ),
  };
  for (const x of ['Cart', 'Catalog', 'Customer', 'Inventory', 'Payment', 'Shipping', 'Taxonomy', 'Review', 'Address', 'Channel', 'Locale', 'Product', 'Promotion', 'User', 'Admin', 'Api', 'Attribute', 'Taxation', 'Order', 'Media', 'Theme', 'Search']) {
    files[`shop-rendering/src/Acme/Bundle/${x}Bundle/${x}Repository.php`] = php(
      `${x}Bundle`,
      `${x}Repository`,
      `    public function find${x}(int $id): ?${x}\n    {\n        return $this->${x.toLowerCase()}Store->get($id);\n    }\n`,
    );
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

describe('words most of the code uses say little of one file (issue 30 item 2, DEC-087)', () => {
  it('a word in half or more of the code files weighs less than the curve gives it; a word only the folder names give every file does not', async () => {
    const repo = fixture();
    const { snapshot } = await open(repo.dir);
    try {
      const cw = (await codeWordsOf(snapshot))!;
      expect(cw.files).toBe(23);
      const [strict, render, currency] = [terms('strict')[0]!, terms('rendering')[0]!, terms('currency')[0]!];
      // `rendering` is in every file's path and in no file's code
      expect(cw.df[render]).toBe(23);
      expect(cw.pathOnly?.[render]).toBe(23);
      const { code } = distinctWords(cw);
      const curve = distinctWords({ files: cw.files, df: { [strict]: 10 } }).code(strict);
      // in every file's code: under the curve's floor (0.6), at 0.3 of it
      expect(code(strict)).toBeCloseTo(0.3 * 0.6, 2);
      expect(code(strict)).toBeLessThan(curve);
      // in every path but no code: weighed by the curve as before, not lowered
      expect(code(render)).toBeCloseTo(0.6, 2);
      expect(code(currency)).toBe(1);
    } finally {
      snapshot.close();
    }
  });

  it("the calculator finds the rounding record first, not the conventions record that speaks every file's boilerplate", async () => {
    const repo = fixture();
    const { snapshot, set } = await open(repo.dir);
    try {
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'shop-rendering/src/Acme/Bundle/CoreBundle/Calculator/PriceCalculator.php' }, neighbours: false, staleness: false });
      expect(r.results.map((x) => x.id)).toContain('ADR-0001');
      expect(r.results[0]?.id).toBe('ADR-0002');
    } finally {
      snapshot.close();
    }
  });
});
