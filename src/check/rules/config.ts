// @spec SPEC-CHECK-001
import { CONFIG_FILE, knownConfigKeys } from '../../config.js';
import { closeMatches } from '../../util/close-match.js';
import type { CheckContext, Finding, Rule } from '../types.js';

/** The line of `key:` in the YAML text, below the line of its parent section when nested. */
function keyLine(lines: string[], path: string[]): number | undefined {
  let from = 0;
  let found: number | undefined;
  for (const key of path) {
    const esc = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(`^\\s*(?:-\\s*)?["']?${esc}["']?\\s*:`);
    const i = lines.findIndex((l, n) => n >= from && re.test(l));
    if (i < 0) return found;
    found = i + 1;
    from = i + 1;
  }
  return found;
}

function suggestion(word: string, candidates: string[]): string {
  const near = closeMatches(word, candidates, 1);
  if (near.length) return ` (did you mean ${near[0]}?)`;
  // a longer slip than one edit: a candidate that starts the same way
  const prefix = candidates.find((c) => word.length >= 4 && (c.startsWith(word.slice(0, 4)) || word.startsWith(c)));
  return prefix ? ` (did you mean ${prefix}?)` : '';
}

async function configFindings(ctx: CheckContext): Promise<Omit<Finding, 'severity'>[]> {
  const { config } = ctx;
  const severityIds = Object.keys(config.severities);
  if (!config.unknownKeys.length && !severityIds.length) return [];
  // the rule list is imported on use: rules/index.ts imports this module
  const { RULES } = await import('./index.js');
  const ruleIds = RULES.map((r) => r.id);
  const unknownRules = severityIds.filter((id) => !ruleIds.includes(id));
  if (!config.unknownKeys.length && !unknownRules.length) return [];
  const candidatesFile = ['.contextia', config.dir].map((d) => `${d}/${CONFIG_FILE}`);
  let file = candidatesFile[0]!;
  let text = '';
  for (const f of candidatesFile) {
    const buf = await ctx.snapshot.read(f);
    if (buf) {
      file = f;
      text = buf.toString('utf8');
      break;
    }
  }
  const lines = text.split(/\r?\n/);
  const known = knownConfigKeys();
  const out: Omit<Finding, 'severity'>[] = [];
  for (const key of config.unknownKeys) {
    const parts = key.split('.');
    const section = parts.length > 1 ? parts[0]! : undefined;
    const pool = section ? known.filter((k) => k.startsWith(`${section}.`)).map((k) => k.slice(section.length + 1)) : known.filter((k) => !k.includes('.'));
    const leaf = parts[parts.length - 1]!;
    out.push({ rule: 'config-unknown-key', file, line: keyLine(lines, parts), message: `unknown config key ${key}${suggestion(leaf, pool)}; it is ignored` });
  }
  for (const id of unknownRules) {
    const section = lines.some((l) => /^rules\s*:/.test(l)) ? 'rules' : 'severities';
    out.push({ rule: 'config-unknown-key', file, line: keyLine(lines, [section, id]), message: `${section}: ${id} is not a rule id${suggestion(id, ruleIds)}; its severity is ignored (git ctx check --list-rules)` });
  }
  return out;
}

export const CONFIG_RULES: Rule[] = [
  {
    id: 'config-unknown-key',
    severity: 'warning',
    description: 'config.yaml has a key, or a rule id under rules:, that git-ctx does not know (a typo is ignored silently otherwise)',
    run: configFindings,
  },
];
