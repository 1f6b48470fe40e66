import { describe, expect, it } from 'vitest';
import { mentionCandidates } from '../../src/artifacts/sources/mentions.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// smorinlabs/envgen's 0008 (written with an agent) lists the files it changed by their absolute
// paths on the author's machine (`/Users/<name>/c/envgen/src/commands/pull.rs`): the repository
// path is a tail of each, yet none was read as a mention, so the record named its code and
// context_for_code found it only by its words (agents33).
describe('a file named by its absolute path on the author\'s machine', () => {
  it('reads the tails after the home folder, longest first, two segments or more', () => {
    const [[alts]] = mentionCandidates('- `/Users/ana/work/shop/src/cart/total.rs`\n', 'docs/adr/0003-x.md', 1) as [[string[], number]];
    expect(alts).toEqual(['Users/ana/work/shop/src/cart/total.rs', 'work/shop/src/cart/total.rs', 'shop/src/cart/total.rs', 'src/cart/total.rs', 'cart/total.rs']);
    const [[home]] = mentionCandidates('`/home/ana/shop/README.md`', 'docs/adr/0003-x.md', 1) as [[string[], number]];
    expect(home).toEqual(['home/ana/shop/README.md', 'shop/README.md']);
    // any other absolute path is read as before: repository-absolute
    const [[other]] = mentionCandidates('`/src/cart/total.rs`', 'docs/adr/0003-x.md', 1) as [[string[], number]];
    expect(other).toEqual(['src/cart/total.rs']);
  });

  it('the record is found for that file as a record that names it', () => {
    const repo = makeRepo();
    repo.commit('records', {
      'docs/adr/0001-one-config-file.md': '# 0001: One config file\nDate: 2026-01-02\nStatus: Accepted\n\n## Decision\n\nEvery setting lives in `settings.toml`.\n',
      'docs/adr/0002-round-totals-once.md': '# 0002: Round totals once\nDate: 2026-01-03\nStatus: Accepted\n\n## Decision\n\nA basket is rounded once, at the end, never per line.\n\n## References\n\n- `/Users/ana/work/shop/src/cart/total.rs`\n- `/Users/ana/work/shop/README.md`\n',
      'src/cart/total.rs': 'pub fn basket_sum(lines: &[i64]) -> i64 { lines.iter().sum() }\n',
      'README.md': '# shop\n',
    });
    const r = runCli(['for', 'src/cart/total.rs', '--format', 'json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { results: { id: string; why: { kind: string; text: string }[] }[] };
    const hit = out.results.find((x) => x.id === 'ADR-0002');
    expect(hit?.why.some((w) => w.kind === 'mention' && w.text.includes('src/cart/total.rs'))).toBe(true);
  });
});
