// @spec SPEC-RULES-001

import type { TokenCounter } from '../assemble/tokens.js';
import type { Finding, Rule } from '../check/types.js';
import type { Config } from '../config.js';
import { planRuleFiles } from './export.js';

type CounterModule = typeof import('./counter.js');

/**
 * The token counter, loaded on first use: only a rule file over budget in bytes needs counting.
 * The GitHub Action (one bundle, which must never load tiktoken's WASM) runs every check rule;
 * its bundle leaves tiktoken out (scripts/build-action.mjs), so a count that needs it makes the
 * rule report an error there instead of the Action failing.
 */
function lazyCounter(root: string, config: Config): TokenCounter & { free(): void } {
  let real: ReturnType<CounterModule['rulesCounter']> | undefined;
  return {
    encoding: config.assemble.encoding,
    async count(texts) {
      if (!texts.length) return [];
      real ??= (await import('./counter.js')).rulesCounter(root, config);
      return real.count(texts);
    },
    free: () => real?.free(),
  };
}

/**
 * Drift between the records and the agents' rule files that already carry git-ctx content
 * (a managed section, or files it generated): a repository that never exported has nothing
 * to drift from, so it gets no finding.
 */
export const RULE_FILE_RULES: Rule[] = [
  {
    id: 'rule-file-drift',
    severity: 'warning',
    description: "an agent rule file's managed part differs from what git ctx rules export would write (run git ctx rules export)",
    run: async (ctx) => {
      const counter = lazyCounter(ctx.snapshot.root, ctx.config);
      const plan = await planRuleFiles({ snapshot: ctx.snapshot, config: ctx.config, set: ctx.set, inUseOnly: true, counter }).finally(() => counter.free());
      const out: Omit<Finding, 'severity'>[] = [];
      for (const f of plan.files) {
        if (!f.changed) continue;
        const what =
          f.content === null
            ? 'was generated from a record that is no longer exported (superseded, deprecated or removed)'
            : f.current === undefined
              ? 'is missing'
              : 'differs from the records';
        out.push({ rule: 'rule-file-drift', file: f.path, line: f.line, message: `${f.path} ${what}; run git ctx rules export` });
      }
      return out;
    },
  },
];
