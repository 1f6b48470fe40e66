// @spec SPEC-RULES-001

import type { TokenCounter } from '../../assemble/tokens.js';
import type { CheckContext, Finding, Rule } from '../types.js';
import type { Config } from '../../config.js';
import { planRuleFiles, type RulesPlan } from '../../rules/export.js';
import { verifyRuleFiles, type VerifyReport } from '../../rules/verify.js';

type CounterModule = typeof import('../../rules/counter.js');

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
      real ??= (await import('../../rules/counter.js')).rulesCounter(root, config);
      return real.count(texts);
    },
    free: () => real?.free(),
  };
}

/** One plan and one verification per check run (ctx.cache lives for one run), shared by the two rules below. */
function planAndVerify(ctx: CheckContext): Promise<{ plan: RulesPlan; report?: VerifyReport }> {
  const key = 'rules:plan-and-verify';
  let r = ctx.cache.get(key) as Promise<{ plan: RulesPlan; report?: VerifyReport }> | undefined;
  if (!r) {
    r = (async () => {
      const counter = lazyCounter(ctx.snapshot.root, ctx.config);
      const plan = await planRuleFiles({ snapshot: ctx.snapshot, config: ctx.config, set: ctx.set, inUseOnly: true, counter }).finally(() => counter.free());
      // the scoped formats in use, read as each tool reads them (git ctx rules verify)
      const scoped = plan.formats.some((f) => f !== 'agents' && f !== 'claude' && f !== 'gemini');
      return { plan, report: scoped ? await verifyRuleFiles({ snapshot: ctx.snapshot, set: ctx.set, plan }) : undefined };
    })();
    ctx.cache.set(key, r);
  }
  return r;
}

/**
 * Drift between the records and the agents' rule files that already carry git-ctx content
 * (a managed section, or files it generated): a repository that never exported has nothing
 * to drift from, so it gets no finding. A generated rule its tool would never load (its
 * record's paths name no file) is drift too. Hand-written rule files in the same folders
 * that their tool would never load or misreads are `rule-file-scope`.
 */
export const RULE_FILE_RULES: Rule[] = [
  {
    id: 'rule-file-drift',
    severity: 'warning',
    description: "an agent rule file's managed part differs from what git ctx rules export would write (run git ctx rules export), or a generated path-scoped rule would never load or is misread by its tool (git ctx rules verify)",
    run: async (ctx) => {
      const { plan, report } = await planAndVerify(ctx);
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
      const generated = new Set(report?.rules.filter((r) => r.generated).map((r) => r.file));
      for (const f of report?.findings ?? []) if (f.severity === 'error' && f.file && generated.has(f.file)) out.push({ rule: 'rule-file-drift', file: f.file, line: 1, message: `${f.message}; fix the record's paths, then run git ctx rules export` });
      return out;
    },
  },
  {
    id: 'rule-file-scope',
    severity: 'warning',
    description: 'a hand-written path-scoped rule file (Cursor, Copilot, Claude Code, Kiro, Windsurf) that its tool would never load or misreads (git ctx rules verify)',
    run: async (ctx) => {
      const { report } = await planAndVerify(ctx);
      const generated = new Set(report?.rules.filter((r) => r.generated).map((r) => r.file));
      return (report?.findings ?? []).filter((f) => f.severity === 'error' && f.file && !generated.has(f.file)).map((f) => ({ rule: 'rule-file-scope', file: f.file, line: 1, message: `${f.message}; run git ctx rules verify` }));
    },
  },
];
