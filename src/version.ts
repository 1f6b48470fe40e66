import { readFileSync } from 'node:fs';
import { packageFile } from './package-root.js';

/** The package version, read once from package.json. */
export const VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();
