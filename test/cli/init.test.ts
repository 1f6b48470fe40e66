import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseArtifact } from '../../src/artifacts/parse.js';
import { defaultConfig, loadConfig } from '../../src/config.js';
import { frameworksOf, languagesOf } from '../../src/init/detect.js';
import { renderIdentity } from '../../src/init/init.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/init-detect');

describe('git ctx init', () => {
  it('creates config.yaml and a detected identity.md', async () => {
    const repo = makeRepo({
      'package.json': readFileSync(path.join(FIX, 'package.json'), 'utf8'),
      'src/server.ts': 'export const x = 1;\n',
      'src/app/page.tsx': 'export default function Page() { return null; }\n',
      'src/util.ts': 'export {};\n',
      'scripts/seed.py': 'print(1)\n',
      'node_modules/dep/index.js': 'ignored',
    });
    repo.write({ '.gitignore': 'node_modules/\n' });
    const r = runCli(['init'], { cwd: repo.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('created .contextia/config.yaml');
    expect(r.stdout).toContain('created .contextia/identity.md');

    const id = parseArtifact('.contextia/identity.md', readFileSync(path.join(repo.dir, '.contextia/identity.md')));
    expect(id.problems).toEqual([]);
    expect(id.artifact).toMatchObject({ id: 'IDENTITY', type: 'identity', title: 'acme-storefront', summary: 'Storefront and checkout API for Acme' });
    expect(id.artifact!.data.languages).toEqual(['TypeScript', 'Python']);
    expect(id.artifact!.data.frameworks).toEqual(['Next.js', 'React', 'Express', 'Vitest']);

    // the written config is the documented defaults, exactly
    const snap = await openSnapshot({ cwd: repo.dir });
    try {
      expect(await loadConfig(snap)).toEqual(defaultConfig());
    } finally {
      snap.close();
    }
    const cfgText = readFileSync(path.join(repo.dir, '.contextia/config.yaml'), 'utf8');
    expect(cfgText).toMatch(/^# git-ctx configuration/);
    expect(cfgText).toContain('# budget: 8000');
    // every section and key of the defaults is spelled out, not only those that differ
    const written = parseYaml(cfgText) as Record<string, unknown>;
    const defaults = defaultConfig() as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(defaults)) {
      if (k === 'gitSources' || k === 'unknownKeys') continue;
      expect(Object.keys(written), k).toContain(k);
      if (k === 'types' || typeof v !== 'object' || v === null || Array.isArray(v)) continue;
      expect(Object.keys(written[k] as object).sort(), k).toEqual(Object.keys(v).sort());
    }

    // a fresh init checks clean
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('does not repeat the languages a description already names', () => {
    const base = { name: 'tuf-like', frameworks: [] as string[], sources: [] as string[] };
    const told = renderIdentity({ ...base, description: 'A reference implementation of an update framework, written in Python.', languages: ['Python'] });
    expect(told).not.toContain('It is written in');
    expect(told).toContain('written in Python. Replace this paragraph');
    // a language the description does not name (or names only as a word: "ready to go") is said
    expect(renderIdentity({ ...base, description: 'Ready to go mirrors for Python packages', languages: ['Python', 'Go'] })).toContain('It is written in Python, Go.');
    expect(renderIdentity({ ...base, description: 'Mirrors for packages', languages: ['Python'] })).toContain('It is written in Python.');
  });

  it('refuses to overwrite, names what exists, and only adds missing folders', () => {
    const repo = makeRepo({ '.contextia/identity.md': '---\nid: IDENTITY\ntype: identity\n---\n# Mine\n' });
    const r = runCli(['init'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.contextia/identity.md');
    expect(r.stderr).toContain('nothing was overwritten');
    expect(r.stderr).toContain('added folder .contextia/system/rationale');
    expect(readFileSync(path.join(repo.dir, '.contextia/identity.md'), 'utf8')).toBe('---\nid: IDENTITY\ntype: identity\n---\n# Mine\n');
    expect(() => readFileSync(path.join(repo.dir, '.contextia/config.yaml'))).toThrow();
    // a second run still refuses
    expect(runCli(['init'], { cwd: repo.dir }).code).toBe(2);
  });

  it('falls back to the folder name and reports no languages in an empty repository', () => {
    const repo = makeRepo();
    const r = runCli(['init'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    const text = readFileSync(path.join(repo.dir, '.contextia/identity.md'), 'utf8');
    expect(text).toContain(`title: ${path.basename(repo.dir)}`);
    expect(text).toContain('languages: []');
  });

  it('outside a git repository exits 2', () => {
    const r = runCli(['init', '--root', '/'], { cwd: '/' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not inside a git repository/);
  });

  it('has --help', () => {
    const r = runCli(['init', '--help'], { cwd: '/' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Never overwrites');
  });
});

describe('detection helpers', () => {
  it('orders languages by file count and skips vendored folders and .d.ts', () => {
    expect(languagesOf(['a.go', 'b.go', 'c.rs', 'd.ts', 'types.d.ts', 'vendor/x.py', 'node_modules/y.js', 'README.md'])).toEqual(['Go', 'Rust', 'TypeScript']);
  });
  it('counts Terraform and other HCL files as code (HCL)', () => {
    expect(languagesOf(['main.tf', 'variables.tf', 'prod.tfvars', 'terragrunt.hcl', 'scripts/plan.sh', 'README.md'])).toEqual(['HCL', 'Shell']);
  });
  it('maps dependencies to frameworks once each', () => {
    expect(frameworksOf({ dependencies: { fastify: '1', prisma: '1', '@prisma/client': '1' }, devDependencies: { jest: '1' } })).toEqual(['Fastify', 'Prisma', 'Jest']);
  });
});
