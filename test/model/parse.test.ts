import { describe, expect, it } from 'vitest';
import { bodyAt, firstSection } from '../../src/artifacts/depth.js';
import { metaText } from '../../src/artifacts/meta-text.js';
import { buildGraph, reverseEdges } from '../../src/artifacts/graph.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { parseArtifact, splitFrontmatter } from '../../src/artifacts/parse.js';
import { defaultConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const parse = (text: string) => parseArtifact('.contextia/x.md', Buffer.from(text));

describe('parseArtifact', () => {
  it('keeps ids, dates and versions as strings and keeps unknown keys', () => {
    const { artifact, problems } = parse('---\nid: 0042\ntype: decision\ncreated: 2026-11-20\nversion: 1.10\nreviewed: yes\ncustom:\n  nested: 007\n---\n# Title from heading\n\nBody.\n');
    expect(problems).toEqual([]);
    expect(artifact!.id).toBe('0042');
    expect(artifact!.created).toBe('2026-11-20');
    expect(artifact!.data.version).toBe('1.10');
    expect(artifact!.data.reviewed).toBe('yes');
    expect(artifact!.data.custom).toEqual({ nested: '007' });
    expect(artifact!.title).toBe('Title from heading');
  });

  it('falls back to description for the title and summary (snippets written for other tools)', () => {
    const { artifact } = parse('---\nid: project/design/context-selection\ndescription: Two-phase context selection\nscope: domain\ntype: design\nrequires: [project/policy/x]\n---\nNo heading here.\n');
    expect(artifact!.title).toBe('Two-phase context selection');
    expect(artifact!.summary).toBe('Two-phase context selection');
    expect(artifact!.scope).toBe('domain');
    expect(artifact!.requires).toEqual(['project/policy/x']);
  });

  it('reads links as a mapping or a list, relations nested or top level', () => {
    const { artifact } = parse('---\nid: SPEC-1\ntype: spec\nlinks: { specs: [SPEC-2], decisions: [DEC-1, DEC-2] }\nsupersedes: [SPEC-0]\nrelations:\n  depends_on: [SPEC-3]\n---\n');
    expect(artifact!.links).toEqual([
      { kind: 'specs', id: 'SPEC-2' },
      { kind: 'decisions', id: 'DEC-1' },
      { kind: 'decisions', id: 'DEC-2' },
    ]);
    expect(artifact!.relations).toEqual({ depends_on: ['SPEC-3'], supersedes: ['SPEC-0'] });
  });

  it('records the line of each key and handles CRLF files', () => {
    const { artifact } = parse('---\r\nid: DEC-1\r\ntype: decision\r\nstatus: accepted\r\n---\r\n# T\r\n');
    expect(artifact!.keyLines).toEqual({ id: 2, type: 3, status: 4 });
    expect(artifact!.status).toBe('accepted');
    expect(artifact!.bodyLine).toBe(6);
  });

  it('splits frontmatter exactly (offsets for surgical writes)', () => {
    const text = '---\nid: A\n---\nbody\n---\nnot frontmatter\n';
    const s = splitFrontmatter(text);
    expect(s.yaml).toBe('id: A\n');
    expect(s.body).toBe('body\n---\nnot frontmatter\n');
    expect(text.slice(s.yamlStart, s.yamlEnd)).toBe('id: A\n');
  });
});

describe('depth views', () => {
  const { artifact } = parse('---\nid: DEC-1\ntype: decision\nsummary: S\nstamp:\n  commit: abc\n---\n# Title\n\nFirst paragraph.\n\n## Context\n\nMore.\n');
  it('meta is frontmatter only, without the stamp', () => {
    expect(bodyAt(artifact!, 'meta')).toBe('');
    expect(metaText(artifact!)).toBe('id: DEC-1\ntype: decision\nsummary: S');
  });
  it('summary is the first section', () => {
    expect(bodyAt(artifact!, 'summary')).toBe('# Title\n\nFirst paragraph.');
    expect(firstSection('Intro text.\n\n# Heading\n\nx')).toBe('Intro text.');
  });
  it('full is everything', () => {
    expect(bodyAt(artifact!, 'full')).toContain('## Context\n\nMore.');
  });
});

describe('link graph', () => {
  it('computes reverse edges, never written', async () => {
    const repo = makeRepo({
      '.contextia/a.md': '---\nid: DEC-2\ntype: decision\nrelations: { supersedes: [DEC-1], caused_by: [DEC-0] }\n---\n',
      '.contextia/b.md': '---\nid: DEC-1\ntype: decision\n---\n',
      '.contextia/c.md': '---\nid: DEC-0\ntype: decision\n---\n',
      '.contextia/d.md': '---\nid: TASK-1\ntype: task\nlinks: { decisions: [DEC-1] }\nrequires: [DEC-0]\n---\n',
    });
    repo.commit('graph');
    const snap = await openSnapshot({ cwd: repo.dir });
    const set = await loadArtifactSet(snap, defaultConfig());
    snap.close();
    const g = buildGraph(set);
    expect(reverseEdges(g, 'DEC-1')).toEqual({ superseded_by: ['DEC-2'], linked_from: ['TASK-1'] });
    expect(reverseEdges(g, 'DEC-0')).toEqual({ leads_to: ['DEC-2'], required_by: ['TASK-1'] });
  });
});

describe('global artifacts', () => {
  it('are loaded only when opted in, marked global, with content hashes; repo ids win', async () => {
    const gdir = mkdtempSync(path.join(tmpdir(), 'git-ctx-global-'));
    mkdirSync(path.join(gdir, 'norms'));
    writeFileSync(path.join(gdir, 'norms/NORM-G-1.md'), '---\nid: NORM-G-1\ntype: norm\ntitle: Global norm\n---\nG\n');
    writeFileSync(path.join(gdir, 'norms/NORM-1.md'), '---\nid: NORM-1\ntype: norm\ntitle: Shadowed\n---\nG\n');
    const repo = makeRepo({ '.contextia/n.md': '---\nid: NORM-1\ntype: norm\ntitle: Local\n---\n' });
    repo.commit('local');
    const snap = await openSnapshot({ cwd: repo.dir });
    const off = await loadArtifactSet(snap, defaultConfig(), { globalDir: gdir });
    expect([...off.byId.keys()]).toEqual(['NORM-1']);
    const on = await loadArtifactSet(snap, defaultConfig(), { globalDir: gdir, global: true });
    snap.close();
    expect([...on.byId.keys()].sort()).toEqual(['NORM-1', 'NORM-G-1']);
    expect(on.byId.get('NORM-1')!.title).toBe('Local');
    expect(on.byId.get('NORM-G-1')!.scope).toBe('global');
    expect(on.duplicates.size).toBe(0);
    expect(Object.keys(on.globalHashes).sort()).toEqual(['~global/norms/NORM-1.md', '~global/norms/NORM-G-1.md']);
  });
});
