import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../src');
/** The renovation's limit (issue 29): a module longer than this is split by responsibility. */
const MAX_LINES = 500;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('source files', () => {
  it(`no module in src/ is over ${MAX_LINES} lines`, () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(100);
    const long = files.map((f) => ({ file: path.relative(SRC, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 })).filter((x) => x.lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
