// @spec SPEC-RETRIEVE-001

import { classifyGovernable, type UngovernableFile } from '../code/ungovernable.js';
import type { RetrieveOptions } from './types.js';

/**
 * Whether a file is one no record can govern, by the classes a change's files are sorted into
 * (src/code/ungovernable.ts, DEC-060): a lockfile, generated or vendored code, a binary, a
 * test snapshot, `ungovernable.paths`; undefined when records may govern it. CI settings are
 * not among them here: the team writes a workflow by hand and a record may decide it (how a
 * release is deployed); a change leaves them out because a CI edit rarely needs a record, a
 * place asked about is judged as any file (DEC-101).
 */
export async function ungovernableFile(snapshot: RetrieveOptions['snapshot'], config: RetrieveOptions['set']['config'], path: string): Promise<UngovernableFile | undefined> {
  try {
    return (await classifyGovernable([path], { read: (p) => snapshot.read(p), config, declared: () => true })).ungovernable[0];
  } catch {
    // an unreadable attributes file or head: judged as a file records may govern
    return undefined;
  }
}
