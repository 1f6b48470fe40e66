import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { hunkSymbols, isSettingsFile, sectionsAt } from '../../src/pr/hunk-symbols.js';
import { diffPullRequest } from '../../src/git/diff.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { pullRequestRepo } from '../helpers/git-repo.js';

/* What a change's hunks sit in beyond git's hunk header: a Python method, a settings file's section. */

const record = (id: string, title: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: "${title}"\nstatus: accepted\n---\n# ${title}\n\n${body}\n`;

const VAULT_BEFORE = [
  'import time',
  '',
  '',
  'class KeyVault:',
  '    """Holds the signing material of one service."""',
  '',
  '    def __init__(self, store):',
  '        self.store = store',
  '',
  '    def rotate_signing_keys(self, now=None):',
  '        now = now or time.time()',
  '        retries = 1',
  '        for attempt in range(retries):',
  '            self.store.swap(now, attempt)',
  '',
  '    def describe(self):',
  '        return "vault"',
  '',
].join('\n');

const SETUP_BEFORE = ['[metadata]', 'name = vaultlib', '', '[flake8]', 'max-line-length = 100', 'extend-ignore = E203', '', '[mypy]', 'python_version = 3.11', 'warn_return_any = True', ''].join('\n');

const RECORDS = {
  '.contextia/config.yaml': 'version: 1\n',
  '.contextia/system/rationale/DEC-ROTATE.md': record(
    'DEC-ROTATE',
    'Signing keys rotate without downtime',
    'Rotating the signing keys of the vault swaps them atomically: the old key keeps verifying while the new one signs. Rotation is retried until the swap lands.',
  ),
  '.contextia/system/rationale/DEC-TYPING.md': record(
    'DEC-TYPING',
    'Strict static typing with mypy',
    'Every module is type checked by mypy; mypy settings are tightened, never loosened, and untyped definitions are disallowed in new modules.',
  ),
  '.contextia/system/rationale/DEC-LINT.md': record('DEC-LINT', 'Lint with flake8 at a 100-column limit', 'flake8 runs on every commit with a 100-column line limit; style findings block the merge.'),
  '.contextia/system/rationale/DEC-PAYLOADS.md': record('DEC-PAYLOADS', 'Webhook payloads are validated at the boundary', 'Untyped payloads are disallowed past the webhook boundary: each one is parsed into a validated shape first.'),
  '.contextia/system/rationale/DEC-BILLING.md': record('DEC-BILLING', 'Invoices are immutable once issued', 'An issued invoice is never edited; a correction is a credit note that references it.'),
};

describe('hunk symbols: what a change sits in beyond git’s hunk header', () => {
  it('names the Python method a hunk is in (git names only the class) and the settings section a key is in', async () => {
    const { repo, base, head } = pullRequestRepo({
      files: { ...RECORDS, 'vault/keys.py': VAULT_BEFORE, 'setup.cfg': SETUP_BEFORE },
      change: {
        'vault/keys.py': VAULT_BEFORE.replace('now or time.time()', 'now or time.monotonic()'),
        'setup.cfg': SETUP_BEFORE.replace('warn_return_any = True\n', 'warn_return_any = True\nwarn_unused_ignores = True\n'),
      },
    });
    const diff = await diffPullRequest(repo.dir, base, head, {});
    const py = diff.files.find((f) => f.path === 'vault/keys.py')!;
    // git's default hunk header is the last unindented line: the class, not the method
    expect(py.hunks.map((h) => h.context ?? '')).not.toEqual(expect.arrayContaining([expect.stringContaining('rotate_signing_keys')]));
    const cfg = diff.files.find((f) => f.path === 'setup.cfg')!;
    expect(cfg.hunks.map((h) => h.context ?? '').join(' ')).not.toContain('mypy');
    const snap = await openSnapshot({ cwd: repo.dir, kind: 'commit', rev: head, backend: 'git' });
    try {
      const symbols = await hunkSymbols(diff.files, snap);
      expect(symbols.get('vault/keys.py')).toEqual(expect.arrayContaining(['KeyVault.rotate_signing_keys']));
      expect(symbols.get('vault/keys.py')).not.toContain('KeyVault.describe');
      // only the section the changed key is in: not [flake8] above it
      expect(symbols.get('setup.cfg')).toEqual(['mypy']);
    } finally {
      snap.close();
    }
  });

  it('names the Rust function of an impl block a hunk is in', async () => {
    const RS = ['pub struct Vault;', '', 'impl Vault {', '    pub fn rotate(&self) -> u32 {', '        let retries = 1;', '        retries', '    }', '', '    pub fn describe(&self) -> &str {', '        "vault"', '    }', '}', ''].join('\n');
    const { repo, base, head } = pullRequestRepo({ files: { ...RECORDS, 'vault/src/keys.rs': RS }, change: { 'vault/src/keys.rs': RS.replace('let retries = 1;', 'let retries = 3;') } });
    const diff = await diffPullRequest(repo.dir, base, head, {});
    const snap = await openSnapshot({ cwd: repo.dir, kind: 'commit', rev: head, backend: 'git' });
    try {
      const symbols = await hunkSymbols(diff.files, snap);
      expect(symbols.get('vault/src/keys.rs')).toEqual(['Vault.rotate']);
    } finally {
      snap.close();
    }
  });

  it('sections: TOML tables and arrays of tables, a deletion between keys, lines before any section', () => {
    const lines = ['top = 1', '[tool.ruff]', 'line-length = 80', '', '[tool.ruff.lint]  # the linter', 'select = ["ALL"]', '[[tool.mypy.overrides]]', 'module = "x"'];
    expect(sectionsAt(lines, [{ start: 1, count: 1 }])).toEqual([]);
    expect(sectionsAt(lines, [{ start: 6, count: 1 }])).toEqual(['tool.ruff.lint']);
    // a pure deletion after line 3 sits in the section of line 3
    expect(sectionsAt(lines, [{ start: 3, count: 0 }])).toEqual(['tool.ruff']);
    // a hunk spanning a header names both sections it touches
    expect(sectionsAt(lines, [{ start: 6, count: 3 }])).toEqual(['tool.ruff.lint', 'tool.mypy.overrides']);
    // a value that is a list on its own line is not a header
    expect(sectionsAt(['[a]', 'x = [', '  ["y"],', ']', 'z = 1'], [{ start: 5, count: 1 }])).toEqual(['a']);
    for (const p of ['pyproject.toml', 'setup.cfg', 'tox.ini', 'conf/app.conf', '.flake8', '.pylintrc', 'src/.coveragerc']) expect(isSettingsFile(p), p).toBe(true);
    for (const p of ['app.py', 'package.json', 'ci.yml', 'poetry.lock', 'README.md', 'src/config.ts']) expect(isSettingsFile(p), p).toBe(false);
  });

  it('a pull request reaches the record about the method or the tool the hunks sit in, though the changed lines never name them', async () => {
    const py = pullRequestRepo({
      files: { ...RECORDS, 'vault/keys.py': VAULT_BEFORE },
      change: { 'vault/keys.py': VAULT_BEFORE.replace('now or time.time()', 'now or time.monotonic()') },
    });
    const r = await analyzePullRequest({ cwd: py.repo.dir, base: py.base, head: py.head, cache: false, check: false, title: 'Use a monotonic clock' });
    expect(r.files.map((f) => f.path)).toEqual(['vault/keys.py']);
    const rotate = r.ranked.find((x) => x.id === 'DEC-ROTATE');
    expect(rotate, JSON.stringify(r.ranked)).toMatchObject({ strength: 'retrieved', places: [expect.objectContaining({ path: 'vault/keys.py' })] });
    expect(rotate!.why).toMatch(/rotat|signing|keys/);
    expect(r.ranked.map((x) => x.id)).not.toContain('DEC-BILLING');

    // a Python project's settings file is read like code (not CI configuration) and its section names the tool
    const cfg = pullRequestRepo({
      files: { ...RECORDS, 'setup.cfg': SETUP_BEFORE },
      change: { 'setup.cfg': SETUP_BEFORE.replace('warn_return_any = True\n', 'warn_return_any = True\ndisallow_untyped_defs = True\n') },
    });
    // "disallow untyped" alone is as much the webhook record's; the section says it is the type checker's setting
    const c = await analyzePullRequest({ cwd: cfg.repo.dir, base: cfg.base, head: cfg.head, cache: false, check: false, title: 'Disallow untyped definitions' });
    expect(c.ungovernable ?? []).toEqual([]);
    expect(c.retrieval.read).toBe(1);
    const ids = c.ranked.map((x) => x.id);
    expect(ids[0], JSON.stringify(c.ranked)).toBe('DEC-TYPING');
    expect(c.ranked[0]!.why).toContain('mypy');
    expect(ids).not.toContain('DEC-BILLING');
    expect(ids.indexOf('DEC-PAYLOADS')).not.toBe(0);
  });
});
