import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCodeIndex, type CodeIndex } from '../../src/code/code-index.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';

/**
 * The code index's classification kept by the git index's stamp (DEC-070) against a code index
 * built from scratch (no cache at all) on the same working tree, after every kind of change:
 * an edit, an added file, a deletion, a rename, a change staged only, and an edit in the same
 * second as the index with the size and time of the staged file. An unchanged index must be
 * answered from the kept classification.
 */

const ann = (id: string, name: string) => `// @decision ${id}\nexport function ${name}(x: number): number {\n  return x + 1;\n}\n`;
const plain = (name: string) => `export const ${name} = 1;\n`;

function seed(): TestRepo {
  const files: Record<string, string> = {
    '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: One\nstatus: accepted\n---\n\n# One\n',
    '.contextia/system/rationale/DEC-002.md': '---\nid: DEC-002\ntype: decision\ntitle: Two\nstatus: accepted\n---\n\n# Two\n',
    'src/a.ts': ann('DEC-001', 'alpha'),
    'src/b.ts': ann('DEC-002', 'beta'),
    'src/big.ts': `// @decision DEC-001\n${'x'.repeat(300)}\n`,
    'lib/c.py': '# @decision DEC-002\ndef gamma():\n    return 1\n',
    '.contextia/config.yaml': 'limits:\n  max_file_bytes: 200\n',
  };
  for (let i = 0; i < 40; i++) files[`src/plain/p${i}.ts`] = plain(`p${i}`);
  const repo = makeRepo(files);
  repo.commit('seed');
  return repo;
}

/** What a code index says of the tree, in a form two indexes can be compared by. */
async function view(index: CodeIndex) {
  return {
    files: index.files.map((f) => `${f.path} ${f.language} ${f.blob ?? '-'} ${f.candidate}`),
    annotations: index.annotations.map((a) => `${a.file}:${a.line} @${a.tag} ${a.ids.join(',')} ${a.symbol ?? ''}`),
    problems: index.problems.map((p) => `${p.file} ${p.kind} ${p.message}`),
    carriers: index.carriers()?.map((c) => `${c.path} ${c.blob}`).sort(),
    count: index.stats.files,
    ids: index.annotatedIds(),
    symbols: (await index.symbolsOf('src/a.ts')).map((s) => s.name),
    known: index.file('src/plain/p3.ts')?.blob,
  };
}

/** Build the index of the working tree with the repository's cache (kept) and without any (from scratch). */
async function both(dir: string) {
  const open = async () => {
    const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
    return { snapshot, config: await loadConfig(snapshot) };
  };
  const a = await open();
  const warm = await buildCodeIndex(a.snapshot, a.config);
  const b = await open();
  const scratch = await buildCodeIndex(b.snapshot, b.config, { cache: false });
  const out = { warm: await view(warm), scratch: await view(scratch), kept: warm.stats.kept };
  a.snapshot.close();
  b.snapshot.close();
  return out;
}

/** Twice: the first run after a change may classify file by file and keep; the second of an unchanged index must use what was kept. */
async function expectSame(dir: string, keptExpected = true) {
  const first = await both(dir);
  expect(first.warm).toEqual(first.scratch);
  const second = await both(dir);
  expect(second.warm).toEqual(second.scratch);
  if (keptExpected) expect(second.kept).toBeGreaterThan(0);
  return second;
}

describe('code index classification kept by the index stamp (DEC-070)', () => {
  it('answers what a code index from scratch answers, after every kind of change', async () => {
    const repo = seed();
    const { dir } = repo;
    const start = await expectSame(dir);
    expect(start.warm.annotations.length).toBe(3);
    expect(start.warm.problems.some((p) => p.startsWith('src/big.ts too-large'))).toBe(true);

    // an edit in the working tree: a new annotation in a file kept as tag-free
    writeFileSync(path.join(dir, 'src/plain/p3.ts'), ann('DEC-002', 'p3'));
    const edited = await expectSame(dir);
    expect(edited.warm.annotations.some((a) => a.startsWith('src/plain/p3.ts:1 @decision DEC-002'))).toBe(true);
    // and an annotation removed from a kept carrier
    writeFileSync(path.join(dir, 'src/a.ts'), plain('alpha'));
    const removed = await expectSame(dir);
    expect(removed.warm.annotations.some((a) => a.startsWith('src/a.ts'))).toBe(false);

    // an added file, not staged, and one staged
    writeFileSync(path.join(dir, 'src/new.ts'), ann('DEC-001', 'fresh'));
    writeFileSync(path.join(dir, 'lib/staged.py'), '# @decision DEC-001\ndef staged():\n    return 2\n');
    repo.git('add', 'lib/staged.py');
    const added = await expectSame(dir);
    expect(added.warm.annotations.filter((a) => a.startsWith('src/new.ts') || a.startsWith('lib/staged.py'))).toHaveLength(2);

    // a deletion (on disk only) and a rename (staged)
    repo.rm('src/b.ts');
    repo.git('mv', 'lib/c.py', 'lib/moved.py');
    const moved = await expectSame(dir);
    expect(moved.warm.annotations.some((a) => a.startsWith('src/b.ts') || a.startsWith('lib/c.py'))).toBe(false);
    expect(moved.warm.annotations.some((a) => a.startsWith('lib/moved.py'))).toBe(true);

    // a change staged only (the working tree then agrees with the index), then committed
    writeFileSync(path.join(dir, 'src/plain/p7.ts'), ann('DEC-001', 'p7'));
    repo.git('add', 'src/plain/p7.ts');
    await expectSame(dir);
    repo.commit('everything');
    const committed = await expectSame(dir);
    expect(committed.warm.annotations.some((a) => a.startsWith('src/plain/p7.ts'))).toBe(true);
  });

  it('sees an edit made in the same second as the index, with the staged size and modification time', async () => {
    const repo = seed();
    const { dir } = repo;
    const file = path.join(dir, 'src/plain/p5.ts');
    // staged and edited within one second, the edit keeping the size and the time the index recorded
    writeFileSync(file, 'export const p5 = 2;\n');
    repo.git('add', 'src/plain/p5.ts');
    const st = statSync(file);
    await expectSame(dir);
    const racy = '// @decision DEC-001\n';
    expect(racy.length).toBe(readFileSync(file, 'utf8').length);
    writeFileSync(file, racy);
    utimesSync(file, st.atime, st.mtime);
    const after = await expectSame(dir);
    expect(after.warm.annotations.some((a) => a.startsWith('src/plain/p5.ts:1 @decision DEC-001'))).toBe(true);
  });
});
