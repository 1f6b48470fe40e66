import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';

const version = (JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version;

describe('git ctx --version', () => {
  it('prints the package version from the bin alone (-V too), outside a repository, exit 0; with more arguments commander answers the same', () => {
    const dir = tempDir();
    for (const flag of ['--version', '-V']) {
      const r = runCli([flag], { cwd: dir });
      expect(r).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
    // not the bin's shortcut: the full program answers, identically
    const full = runCli(['-V', '-C', dir], { cwd: dir });
    expect(full).toMatchObject({ code: 0, stdout: `${version}\n` });
  });
});
