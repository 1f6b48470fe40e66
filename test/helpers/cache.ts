import { buildDirName } from '../../src/cache/prune.js';

/**
 * `.git/ctx/cache/build-<id>`, relative to a repository: this build's cache folder (DEC-117).
 * The CLI bundle the tests spawn is built from the same src/, so it writes there too.
 */
export const CACHE_REL = `.git/ctx/cache/${buildDirName()}`;
