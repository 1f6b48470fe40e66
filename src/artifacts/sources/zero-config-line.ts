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
  const head = `no ${dir}/config.yaml${at ? ` ${at}` : ''}`;
  const named = (ss: ZeroConfig['sources']): string => ss.map((s) => `${s.dir}/`).join(', ');
  // a folder a pointer names that is not in the tree at all (identus-cloud-agent's .log4brains.yml
  // after its records moved to another repository): nothing was read, and no "yet" is promised @decision DEC-137
  const missing = z.sources.filter((s) => s.missing);
  const gone = (n: number): string => (n === 1 ? 'that folder is not in the repository: nothing was read from it' : 'those folders are not in the repository: nothing was read from them');
  if (missing.length === z.sources.length) return `${head}: ${z.from} names ${named(missing)} for decision records, but ${gone(missing.length)} (correct the folder ${z.from} names, or \`git ctx new decision\` writes the first record there)`;
  const read = z.sources.filter((s) => !s.missing);
  // a folder a pointer names that is there and holds no record (only a template, a README): said, so
  // "read decision records from" is not taken for records
  const empty = read.filter((s) => s.records === 0);
  const none = !empty.length ? '' : empty.length === read.length ? `; ${empty.length === 1 ? 'it holds' : 'they hold'} no records yet` : `; ${named(empty)} no records yet`;
  const absent = missing.length ? `; ${named(missing)} named but not in the repository, nothing read from ${missing.length === 1 ? 'it' : 'them'}` : '';
  return `${head}: read decision records from ${named(read)} (found by ${z.from}${none}${absent}); \`git ctx init\` pins them`;
}
