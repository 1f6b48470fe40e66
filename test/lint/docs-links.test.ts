import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PAGES = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), 'bench/README.md'];

/** The text outside fenced blocks and inline code: links written as examples are not links. */
function prose(md: string): string {
  return unfenced(md).replace(/`[^`]*`/g, '');
}

function unfenced(md: string): string {
  return md.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of unfenced(md).matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const text = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

describe('the documentation', () => {
  it('links only to files that exist, and to headings those files have', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const md = readFileSync(path.join(ROOT, page), 'utf8');
      for (const m of prose(md).matchAll(/\]\(([^)\s]+)\)/g)) {
        const url = m[1]!;
        if (/^[a-z][a-z+.-]*:/i.test(url)) continue;
        const [file, anchor] = url.split('#', 2) as [string, string | undefined];
        const target = file ? path.resolve(ROOT, path.dirname(page), decodeURIComponent(file)) : path.join(ROOT, page);
        if (!existsSync(target)) broken.push(`${page}: ${url} (no such file)`);
        else if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${page}: ${url} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('links every page of docs/ from the index, docs/README.md', () => {
    const index = readFileSync(path.join(ROOT, 'docs/README.md'), 'utf8');
    const linked = new Set([...prose(index).matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)].map((m) => path.normalize(m[1]!.replace(/^\.\//, ''))));
    const pages = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(pages.filter((f) => !linked.has(f))).toEqual([]);
  });

  it('README opens with exactly two set-up commands, then the tour', () => {
    const md = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const first = /^```sh\n([\s\S]*?)^```/m.exec(md);
    expect(first, 'a sh block').not.toBeNull();
    expect(md.indexOf(first![0])).toBeLessThan(md.indexOf('\n## '));
    const commands = first![1]!.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
    expect(commands).toEqual([expect.stringMatching(/^npm ci && npm run example\b/), expect.stringMatching(/^npm test\b/)]);
    expect(md).toMatch(/^## A five-minute tour$/m);
  });
});
