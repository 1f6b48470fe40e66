import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFilesAtomic } from '../../src/util/atomic.js';
import { tempDir } from '../helpers/git-repo.js';

describe('writeFilesAtomic (batch writes of generated files)', () => {
  it('creates, replaces (keeping the mode) and removes files; leaves no temp files', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'a'));
    writeFileSync(path.join(dir, 'a/old.mdc'), 'old\n');
    chmodSync(path.join(dir, 'a/old.mdc'), 0o640);
    writeFileSync(path.join(dir, 'a/gone.mdc'), 'bye\n');
    const files = Array.from({ length: 50 }, (_, i) => ({ file: path.join(dir, `a/f${i}.mdc`), data: `file ${i}\n` }));
    await writeFilesAtomic([
      ...files,
      { file: path.join(dir, 'a/old.mdc'), data: 'new\n', durable: true },
      { file: path.join(dir, 'a/gone.mdc'), data: null },
      { file: path.join(dir, 'a/never-there.mdc'), data: null },
      { file: path.join(dir, 'top.md'), data: Buffer.from('bytes\n') },
    ]);
    for (let i = 0; i < 50; i++) expect(readFileSync(path.join(dir, `a/f${i}.mdc`), 'utf8')).toBe(`file ${i}\n`);
    expect(readFileSync(path.join(dir, 'a/old.mdc'), 'utf8')).toBe('new\n');
    expect(statSync(path.join(dir, 'a/old.mdc')).mode & 0o777).toBe(0o640);
    expect(existsSync(path.join(dir, 'a/gone.mdc'))).toBe(false);
    expect(readFileSync(path.join(dir, 'top.md'), 'utf8')).toBe('bytes\n');
    expect(readdirSync(path.join(dir, 'a')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a symbolic link at a target and leaves what it points at alone', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'real.md'), 'mine\n');
    symlinkSync('real.md', path.join(dir, 'link.mdc'));
    await expect(writeFilesAtomic([{ file: path.join(dir, 'link.mdc'), data: 'x' }])).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining('symbolic link') });
    expect(readFileSync(path.join(dir, 'real.md'), 'utf8')).toBe('mine\n');
  });

  it("removes a killed writer's temp file of a target in the batch, and nobody else's", async () => {
    const dir = tempDir();
    // pid 2^22+1 is above Linux's pid_max default, so no such process runs
    const dead = `.f.mdc.${2 ** 22 + 1}.0123456789ab.tmp`;
    const live = `.f.mdc.${process.pid}.0123456789ab.tmp`;
    const other = `.other.mdc.${2 ** 22 + 1}.0123456789ab.tmp`;
    for (const n of [dead, live, other]) writeFileSync(path.join(dir, n), 'partial');
    await writeFilesAtomic([{ file: path.join(dir, 'f.mdc'), data: 'done\n' }]);
    expect(readdirSync(dir).sort()).toEqual([live, other, 'f.mdc'].sort());
  });
});
