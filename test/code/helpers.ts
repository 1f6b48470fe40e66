import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

/** All files of a fixture folder as { relative path: content }, for makeRepo. */
export function fixtureFiles(name: string): Record<string, string> {
  const root = path.join(FIXTURES, name);
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir)) {
      const abs = path.join(dir, e);
      if (statSync(abs).isDirectory()) walk(abs);
      else out[path.relative(root, abs).split(path.sep).join('/')] = readFileSync(abs, 'utf8');
    }
  };
  walk(root);
  return out;
}
