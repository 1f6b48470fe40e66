import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from './helpers.js';

// every readFileSync of the module under test is counted, by path
const reads = vi.hoisted(() => [] as string[]);
vi.mock('node:fs', async (orig) => {
  const fs = await orig<typeof import('node:fs')>();
  const readFileSync = ((file: Parameters<typeof fs.readFileSync>[0], ...rest: unknown[]) => {
    reads.push(String(file));
    return (fs.readFileSync as (...a: unknown[]) => unknown)(file, ...rest);
  }) as typeof fs.readFileSync;
  return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});

const { packageRunner } = await import('../../src/hooks/package-runner.js');

/** papercuts32: a hook install asked package.json for the manager, then again for the dependency. */
describe('package.json is read once per question set', () => {
  it('the runner answers the install command, a binary and lefthook from one reading', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ packageManager: 'yarn@4.3.1', devDependencies: { lefthook: '1.11.0', husky: '^9' } }));
    reads.length = 0;
    const pm = packageRunner(dir);
    expect([pm.install, pm.run('husky', 'install'), pm.lefthookInstall]).toEqual(['yarn install', 'yarn husky install', 'yarn lefthook install']);
    expect(reads.filter((f) => f.endsWith('package.json'))).toHaveLength(1);
    reads.length = 0;
    expect(packageRunner(dir).lefthookInstall).toBe('yarn lefthook install');
    expect(reads.filter((f) => f.endsWith('package.json'))).toHaveLength(1);
  });
});
