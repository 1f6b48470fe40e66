// @spec SPEC-SOURCES-001

import type { ZeroConfig } from '../../config.js';

// Apart from the detection (zero-config.ts), which reads the tree: a kept answer prints this
// notice without loading the tree module (DEC-067).

/**
 * The one sentence that says where records were read from without a config file (CLI notice, PR
 * comment). `at` says which tree had none when it is not the work tree (`at the change's head
 * 1a2b3c4`): a config file `git ctx init` wrote and nobody committed yet is there, not in it.
 */
export function zeroConfigLine(z: ZeroConfig, dir = '.contextia', at = ''): string {
  // a folder a pointer names and nobody filled yet (`.adr-dir` naming a folder that is not
  // there, atlassian/github-for-jira): said, so "read decision records from" is not taken for records
  const empty = z.sources.filter((s) => s.records === 0);
  const none = !empty.length ? '' : empty.length === z.sources.length ? `; ${empty.length === 1 ? 'it holds' : 'they hold'} no records yet` : `; ${empty.map((s) => `${s.dir}/`).join(', ')} no records yet`;
  return `no ${dir}/config.yaml${at ? ` ${at}` : ''}: read decision records from ${z.sources.map((s) => `${s.dir}/`).join(', ')} (found by ${z.from}${none}); \`git ctx init\` pins them`;
}
