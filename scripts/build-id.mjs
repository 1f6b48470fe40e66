// The Action bundle's build identity (DEC-117). The CLI bundle's is codeTreeId of src/
// (src/version.ts), taken by scripts/build-cli-bundle.mjs from tsc's output.
import { createHash } from 'node:crypto';

/** The Action's identity: a hash of its bundle as built with the placeholder in place. */
export const BUILD_ID_PLACEHOLDER = '@@GIT_CTX_BUILD_ID@@';
export function outputBuildId(text) {
  return `action-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}
