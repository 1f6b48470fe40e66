// @spec SPEC-SOURCES-001

import type { ZeroConfig } from '../../config.js';

// Apart from the detection (zero-config.ts), which reads the tree: a kept answer prints this
// notice without loading the tree module (DEC-067).

/** The one sentence that says where records were read from without a config file (CLI notice, PR comment). */
export function zeroConfigLine(z: ZeroConfig, dir = '.contextia'): string {
  return `no ${dir}/config.yaml: read decision records from ${z.sources.map((s) => `${s.dir}/`).join(', ')} (found by ${z.from}); \`git ctx init\` pins them`;
}
