// @spec SPEC-CONFIRM-001

import { CtxError } from '../errors.js';
import { regexError } from './read.js';
import type { Confirmation, ConfirmKind } from './types.js';

/** Confirmations given on the command line (`git ctx add --forbid-call …`). */
export interface ConfirmFlags {
  forbidCall?: string[];
  forbidImport?: string[];
  forbid?: string[];
  require?: string[];
}

/** One entry as written: `{ forbid-call: Math.round }`. */
export type ConfirmEntry = Partial<Record<ConfirmKind, string>>;

/** The entries the flags ask for, in kind order; an invalid regular expression is a usage error. */
export function confirmEntries(flags: ConfirmFlags): ConfirmEntry[] {
  const out: ConfirmEntry[] = [];
  const add = (kind: ConfirmKind, values: string[] | undefined) => {
    for (const v of values ?? []) {
      if (!v.trim()) throw new CtxError('USAGE', `--${kind} needs a non-empty value`);
      if (kind === 'forbid' || kind === 'require') {
        const err = regexError(v);
        if (err) throw new CtxError('USAGE', `--${kind} ${JSON.stringify(v)} is not a valid regular expression: ${err}`);
      }
      out.push({ [kind]: v });
    }
  };
  add('forbid-call', flags.forbidCall);
  add('forbid-import', flags.forbidImport);
  add('forbid', flags.forbid);
  add('require', flags.require);
  return out;
}

/**
 * An ADR's confirmation section: a heading at the record's own level (MADR 4 keeps
 * "Confirmation" under "Decision Outcome", an h3; Nygard records use h2) and the fenced
 * `git-ctx` block holding the entries.
 */
export function confirmationSection(entries: ConfirmEntry[], level: 2 | 3): string {
  const yaml = entries.map((e) => {
    const [k, v] = Object.entries(e)[0]!;
    return `  - ${k}: ${JSON.stringify(v)}`;
  });
  return `${'#'.repeat(level)} Confirmation\n\n\`\`\`git-ctx\nconfirm:\n${yaml.join('\n')}\n\`\`\`\n`;
}

/** One line per confirmation, for `git ctx show`. */
export function confirmationLines(confs: Confirmation[]): string[] {
  return confs.map((c) => `${c.kind}${c.pattern ? ` ${c.pattern}` : ''}${c.in.length ? ` in ${c.in.join(', ')}` : ''}${c.severity ? ` (${c.severity})` : ''}${c.message ? ` — ${c.message}` : ''}`);
}
