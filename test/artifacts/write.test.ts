import { chmodSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseArtifact, splitFrontmatter } from '../../src/artifacts/parse.js';
import { editFrontmatterText, readFrontmatterData, updateFrontmatter } from '../../src/artifacts/write.js';
import { CtxError } from '../../src/errors.js';
import { writeFileAtomic } from '../../src/util/atomic.js';
import { tempDir } from '../helpers/git-repo.js';

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/write-preserve');
const decision = readFileSync(path.join(FIX, 'decision.md'), 'utf8');
const stamped = readFileSync(path.join(FIX, 'stamped.md'), 'utf8');

/** Lines of `after` that differ from `before`, as a unified-ish list: removed (-) and added (+). */
function changedLines(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { removed: a.slice(head, a.length - tail), added: b.slice(head, b.length - tail) };
}

const data = (text: string) => readFrontmatterData(text);

describe('editFrontmatterText: surgical edits', () => {
  it('replaces a scalar on its own line, keeping its quote style and trailing comment', () => {
    const out = editFrontmatterText(decision, { status: 'superseded' });
    expect(changedLines(decision, out)).toEqual({ removed: ['status: "accepted"  # reviewed by finance 2026-03'], added: ['status: "superseded"  # reviewed by finance 2026-03'] });
  });

  it('keeps the body byte for byte, including a later --- line', () => {
    const out = editFrontmatterText(decision, { status: 'deprecated', owner: 'bob' });
    expect(splitFrontmatter(out).body).toBe(splitFrontmatter(decision).body);
    expect(out.endsWith('---\nA horizontal rule above is body, not frontmatter.\n')).toBe(true);
  });

  it('appends new keys at the end of the frontmatter and changes nothing else', () => {
    const out = editFrontmatterText(decision, { source: 'meeting' });
    const { removed, added } = changedLines(decision, out);
    expect(removed).toEqual([]);
    expect(added).toEqual(['source: meeting']);
    expect(out.indexOf('source: meeting')).toBeGreaterThan(out.indexOf('version: 010'));
  });

  it('writes a nested mapping (stamp) in block style and reads it back', () => {
    const stamp = { commit: 'abc123', fingerprints: { 'src/billing/invoice/generator.ts#InvoiceGenerator.generate': 'sha256:ff00', 'src/billing/invoice/totals.ts': '0123' } };
    const out = editFrontmatterText(decision, { stamp });
    expect(data(out).stamp).toEqual(stamp);
    expect(changedLines(decision, out).removed).toEqual([]);
    expect(out).toContain('stamp:\n  commit: abc123\n  fingerprints:\n    src/billing/invoice/generator.ts#InvoiceGenerator.generate: sha256:ff00\n    src/billing/invoice/totals.ts: "0123"\n');
    const a = parseArtifact('x.md', Buffer.from(out)).artifact!;
    expect(a.stamp).toEqual(stamp);
  });

  it('replaces an existing stamp wholesale, keeping the comment on its key line and the keys around it', () => {
    const out = editFrontmatterText(stamped, { stamp: { commit: 'ffff', fingerprints: { 'a.ts': 'x1' } } });
    expect(out).toBe(
      [
        '---',
        'id: SPEC-BILLING-001',
        'type: spec',
        'title: Invoice generation',
        'stamp:   # written by git ctx stamp',
        '  commit: ffff',
        '  fingerprints:',
        '    a.ts: x1',
        'status: active',
        '---',
        'Body.',
        '',
      ].join('\n'),
    );
  });

  it('edits one key inside a block mapping (stamp.commit) without touching its siblings', () => {
    const out = editFrontmatterText(stamped, { 'stamp.commit': '0badc0de' });
    expect(changedLines(stamped, out)).toEqual({ removed: ['  commit: 3f2a9c1d0e'], added: ['  commit: 0badc0de'] });
  });

  it('sets relations.supersedes inside a block mapping, keeping its comment', () => {
    const out = editFrontmatterText(decision, { 'relations.supersedes': ['DEC-BILLING-000', 'DEC-BILLING-002'] });
    expect(changedLines(decision, out)).toEqual({
      removed: ['  supersedes: [DEC-BILLING-000]   # the half-up decision'],
      added: ['  supersedes: [DEC-BILLING-000, DEC-BILLING-002]   # the half-up decision'],
    });
  });

  it('adds a new relation kind as the last entry of relations', () => {
    const out = editFrontmatterText(decision, { 'relations.caused_by': ['DEC-BILLING-002'] });
    expect(changedLines(decision, out)).toEqual({ removed: [], added: ['  caused_by: [DEC-BILLING-002]'] });
    expect(data(out).relations).toEqual({ supersedes: ['DEC-BILLING-000'], depends_on: [], caused_by: ['DEC-BILLING-002'] });
  });

  it('creates relations when the file has none', () => {
    const out = editFrontmatterText(stamped, { 'relations.supersedes': ['SPEC-BILLING-000'] });
    expect(changedLines(stamped, out)).toEqual({ removed: [], added: ['relations:', '  supersedes: [SPEC-BILLING-000]'] });
  });

  it('edits inside a flow mapping by rewriting that one line in flow style', () => {
    const out = editFrontmatterText(decision, { 'links.decisions': ['DEC-BILLING-003'] });
    expect(changedLines(decision, out)).toEqual({
      removed: ['links: { specs: [SPEC-BILLING-001], norms: [NORM-ERROR-001] }'],
      added: ['links: { specs: [SPEC-BILLING-001], norms: [NORM-ERROR-001], decisions: [DEC-BILLING-003] }'],
    });
  });

  it('replaces a block sequence written at the key indentation (paths:\\n- a), keeping block style', () => {
    const out = editFrontmatterText(decision, { paths: ['src/billing/**'] });
    const { removed, added } = changedLines(decision, out);
    expect(removed).toEqual(['- src/billing/invoice/totals.ts', '- src/billing/invoice/generator.ts']);
    expect(added).toEqual(['  - src/billing/**']);
    // the comment above paths is not part of its value and stays
    expect(out).toContain('# code this decision governs\npaths:\n  - src/billing/**\nanchors:');
    expect(data(out).anchors).toEqual(data(decision).anchors);
  });

  it('replacing items of a list keeps each item\'s quotes, the list style and its comments (stamp --fix on anchors:)', () => {
    const flow = '---\nid: DEC-1\nanchors: ["src/a.ts#f", \'src/a.ts#g\', src/b.ts]  # reviewed\n---\nbody\n';
    const out = editFrontmatterText(flow, { anchors: ['src/c.ts#f', "src/it's.ts#g", 'src/b.ts'] });
    expect(changedLines(flow, out)).toEqual({ removed: ['anchors: ["src/a.ts#f", \'src/a.ts#g\', src/b.ts]  # reviewed'], added: ['anchors: ["src/c.ts#f", \'src/it\'\'s.ts#g\', src/b.ts]  # reviewed'] });
    const block = '---\nid: DEC-1\nanchors:\n  - "src/a.ts#f"  # the rounding\n  - src/a.ts#g\n---\n';
    const out2 = editFrontmatterText(block, { anchors: ['src/c.ts#f', 'src/c.ts#g, h'] });
    expect(out2).toBe('---\nid: DEC-1\nanchors:\n  - "src/c.ts#f"  # the rounding\n  - src/c.ts#g, h\n---\n');
    // a plain item that would not read back as itself in a flow list is quoted
    const out3 = editFrontmatterText('---\nanchors: [a]\n---\n', { anchors: ['x, y'] });
    expect(out3).toBe('---\nanchors: ["x, y"]\n---\n');
    expect(data(out3).anchors).toEqual(['x, y']);
  });
  it('removes a key with all its lines, and nothing else', () => {
    const out = editFrontmatterText(decision, { summary: undefined });
    expect(changedLines(decision, out)).toEqual({ removed: ['summary: >-', '  Line totals use round-half-even on integer minor units;', '  totals are the sum of rounded lines.'], added: [] });
  });

  it('removing the last entry of a mapping removes the mapping', () => {
    const once = editFrontmatterText(decision, [{ op: 'remove', path: 'relations.depends_on' }]);
    expect(data(once).relations).toEqual({ supersedes: ['DEC-BILLING-000'] });
    const twice = editFrontmatterText(once, [{ op: 'remove', path: 'relations.supersedes' }]);
    expect(data(twice).relations).toBeUndefined();
    expect(twice).not.toContain('relations:');
    expect(twice).toContain('\n\n# code this decision governs\n');
  });

  it('is a no-op for a missing key removal or a set to the same value', () => {
    expect(editFrontmatterText(decision, { nope: undefined, 'relations.nope': undefined })).toBe(decision);
    expect(editFrontmatterText(decision, { keywords: ['rounding', 'invoice', 'currency'], status: 'accepted' })).toBe(decision);
  });

  it('keeps the key order: a replaced key stays where it was', () => {
    const out = editFrontmatterText(decision, { keywords: ['a'], owner: 'zed' });
    expect(Object.keys(data(out))).toEqual(Object.keys(data(decision)));
  });

  it('quotes ids, dates and numbers-like strings so every YAML reader reads them back as strings', () => {
    const values = { id: '001', created: '2026-03-14', flag: 'yes', off: 'off', exp: '1e3', nul: 'null', hex: '0x1F', time: '12:30', plain: 'DEC-BILLING-004' };
    const out = editFrontmatterText('---\n---\n', values);
    const yaml = splitFrontmatter(out).yaml;
    expect(data(out)).toEqual(values);
    // YAML 1.1 readers (gray-matter / js-yaml) coerce dates, yes/no and sexagesimals
    expect(parseYaml(yaml, { version: '1.1' })).toEqual(values);
    expect(parseYaml(yaml)).toEqual(values);
    expect(yaml).toContain('plain: DEC-BILLING-004\n');
  });

  it('writes multi-line strings as literal blocks indented under their key', () => {
    const out = editFrontmatterText(stamped, { 'notes': 'first line\n  indented\nlast' });
    expect(data(out).notes).toBe('first line\n  indented\nlast');
  });

  it('handles CRLF files: every new line uses CRLF and the rest is kept', () => {
    const crlf = decision.replace(/\n/g, '\r\n');
    const one = editFrontmatterText(crlf, { status: 'superseded' });
    expect(changedLines(crlf, one)).toEqual({ removed: ['status: "accepted"  # reviewed by finance 2026-03\r'], added: ['status: "superseded"  # reviewed by finance 2026-03\r'] });
    const out = editFrontmatterText(crlf, { status: 'superseded', 'relations.caused_by': ['X'], stamp: { commit: 'c', fingerprints: { a: 'b' } } });
    expect(out.replace(/\r\n/g, '')).not.toContain('\n');
    expect(out.replace(/\r\n/g, '\n')).toBe(editFrontmatterText(decision, { status: 'superseded', 'relations.caused_by': ['X'], stamp: { commit: 'c', fingerprints: { a: 'b' } } }));
    expect(data(out)).toMatchObject({ status: 'superseded', relations: { caused_by: ['X'] }, stamp: { commit: 'c' } });
    expect(out.endsWith('body, not frontmatter.\r\n')).toBe(true);
  });

  it('keeps a BOM', () => {
    const bom = '\uFEFF' + stamped;
    const out = editFrontmatterText(bom, { status: 'stable' });
    expect(out.startsWith('\uFEFF---\n')).toBe(true);
    expect(out.slice(1)).toBe(editFrontmatterText(stamped, { status: 'stable' }));
  });

  it('fills an empty frontmatter and creates one for a file without', () => {
    expect(editFrontmatterText('---\n---\n# T\n', { id: 'A-1', type: 'concept' })).toBe('---\nid: A-1\ntype: concept\n---\n# T\n');
    expect(editFrontmatterText('# T\r\nbody\r\n', { id: 'A-1' })).toBe('---\r\nid: A-1\r\n---\r\n# T\r\nbody\r\n');
    expect(editFrontmatterText('\uFEFF# T\n', { id: 'A-1' })).toBe('\uFEFF---\nid: A-1\n---\n# T\n');
    expect(editFrontmatterText('---\n# only a comment\n---\nx\n', { id: 'A-1' })).toBe('---\n# only a comment\nid: A-1\n---\nx\n');
  });

  it('refuses malformed frontmatter with the line, and an unterminated one', () => {
    const bad = '---\nid: X\nlinks: [a, b\ntype: decision\n---\n';
    expect(() => editFrontmatterText(bad, { status: 'x' }, 'bad.md')).toThrowError(CtxError);
    try {
      editFrontmatterText(bad, { status: 'x' }, 'bad.md');
    } catch (e) {
      expect((e as CtxError).code).toBe('PARSE');
      expect((e as CtxError).located).toMatch(/^bad\.md:\d+: invalid YAML frontmatter/);
    }
    expect(() => editFrontmatterText('---\nid: X\nno end\n', { status: 'x' })).toThrowError(/not closed/);
    expect(() => editFrontmatterText('---\n- a\n---\n', { status: 'x' })).toThrowError(/mapping/);
  });

  it('refuses to descend into a list', () => {
    expect(() => editFrontmatterText(decision, { 'keywords.x': 'y' })).toThrowError(/is a list/);
  });

  it('accepts array paths for keys that contain dots', () => {
    const out = editFrontmatterText(stamped, [{ op: 'set', path: ['stamp', 'fingerprints', 'src/billing/invoice/totals.ts'], value: 'new' }]);
    expect(changedLines(stamped, out)).toEqual({ removed: ['    src/billing/invoice/totals.ts: 9b1c'], added: ['    src/billing/invoice/totals.ts: new'] });
  });
});

describe('updateFrontmatter and writeFileAtomic', () => {
  const tmp = () => tempDir('git-ctx-write-');

  it('replaces the file, keeps its mode, and leaves no temp files', async () => {
    const dir = tmp();
    const file = path.join(dir, 'DEC-BILLING-001.md');
    writeFileSync(file, decision);
    chmodSync(file, 0o640);
    const r = await updateFrontmatter(file, { status: 'superseded' }, { lockDir: path.join(dir, 'locks') });
    expect(r.changed).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(r.after);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir).sort()).toEqual(['DEC-BILLING-001.md', 'locks']);
    expect(readdirSync(path.join(dir, 'locks'))).toEqual([]);
  });

  it('does not rewrite a file the edits would not change', async () => {
    const dir = tmp();
    const file = path.join(dir, 'a.md');
    writeFileSync(file, stamped);
    const before = statSync(file).ino;
    const r = await updateFrontmatter(file, { status: 'active' }, { lockDir: dir });
    expect(r.changed).toBe(false);
    expect(statSync(file).ino).toBe(before);
  });

  it('computes edits from the current frontmatter under the lock', async () => {
    const dir = tmp();
    const file = path.join(dir, 'a.md');
    writeFileSync(file, decision);
    await updateFrontmatter(file, (cur) => ({ keywords: [...(cur.keywords as string[]), 'audit'] }), { lockDir: dir });
    expect(data(readFileSync(file, 'utf8')).keywords).toEqual(['rounding', 'invoice', 'currency', 'audit']);
  });

  it('refuses symbolic links and files that are not UTF-8', async () => {
    const dir = tmp();
    const real = path.join(dir, 'real.md');
    writeFileSync(real, stamped);
    symlinkSync(real, path.join(dir, 'link.md'));
    await expect(updateFrontmatter(path.join(dir, 'link.md'), { status: 'x' }, { lockDir: dir })).rejects.toThrow(/symbolic link/);
    expect(lstatSync(path.join(dir, 'link.md')).isSymbolicLink()).toBe(true);
    writeFileSync(path.join(dir, 'latin1.md'), Buffer.from('---\nid: X\ntype: norm\ntitle: caf\xe9\n---\n', 'latin1'));
    await expect(updateFrontmatter(path.join(dir, 'latin1.md'), { status: 'x' }, { lockDir: dir })).rejects.toThrow(/not valid UTF-8/);
  });

  it('createOnly never replaces an existing file', async () => {
    const dir = tmp();
    const file = path.join(dir, 'x.md');
    await writeFileAtomic(file, 'one', { createOnly: true });
    await expect(writeFileAtomic(file, 'two', { createOnly: true })).rejects.toMatchObject({ code: 'EXISTS' });
    expect(readFileSync(file, 'utf8')).toBe('one');
    expect(readdirSync(dir)).toEqual(['x.md']);
  });
});
