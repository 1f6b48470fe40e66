// @spec SPEC-CONFIRM-001

import { CtxError } from '../../errors.js';
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
export { confirmationSection } from '../../artifacts/sources/confirm-block.js';

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

/** One line per confirmation, for `git ctx show`. */
export function confirmationLines(confs: Confirmation[]): string[] {
  return confs.map((c) => `${c.kind}${c.pattern ? ` ${c.pattern}` : ''}${c.in.length ? ` in ${c.in.join(', ')}` : ''}${c.severity ? ` (${c.severity})` : ''}${c.message ? ` — ${c.message}` : ''}`);
}
