import { describe, expect, it } from 'vitest';
import { progressLine } from '../../src/cli/progress.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

describe('progress line', () => {
  it('stays silent for a step shorter than a second, then redraws at most every 100 ms and erases itself', () => {
    let t = 0;
    const out: string[] = [];
    const p = progressLine({ write: (s) => out.push(s), now: () => t });
    p('quick', 0, 10);
    t = 500;
    p('quick', 10, 10);
    expect(out).toEqual([]);
    t = 1000;
    p('slow', 0, 1000);
    t = 2100;
    p('slow', 100, 1000);
    t = 2150;
    p('slow', 150, 1000); // within 100 ms of the last draw: skipped
    t = 2300;
    p('slow', 500, 1000);
    t = 2400;
    p('slow', 1000, 1000);
    expect(out).toEqual(['\r\x1b[Kslow  100/1000 (10%)', '\r\x1b[Kslow  500/1000 (50%)', '\r\x1b[K']);
  });

  it('a new step ends the one before; clear() erases only what was drawn', () => {
    let t = 0;
    const out: string[] = [];
    const p = progressLine({ write: (s) => out.push(s), now: () => t });
    p('a', 0, 10);
    t = 1500;
    p('a', 5, 10);
    p('b', 0, 10);
    p.clear();
    expect(out).toEqual(['\r\x1b[Ka  5/10 (50%)', '\r\x1b[K']);
  });

  it('is never drawn when stderr is not a terminal', () => {
    const files: Record<string, string> = { '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: One\nstatus: accepted\n---\nBody.\n' };
    for (let i = 0; i < 300; i++) files[`src/f${i}.ts`] = `// @decision DEC-001\nexport const v${i} = ${i};\n`;
    const repo = makeRepo(files);
    repo.commit('init');
    const r = runCli(['check'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
