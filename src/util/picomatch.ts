import { createRequire } from 'node:module';
import type PicomatchT from 'picomatch';

/**
 * picomatch, loaded with require: importing a CommonJS package from ESM first runs a lexer
 * over it to find its named exports (~20 ms here, against ~6 ms for require), and the hook
 * pays every millisecond of start-up. The Action bundle turns this into a bundled require.
 */
export const picomatch = createRequire(import.meta.url)('picomatch') as typeof PicomatchT;
