// Regenerates docs/map.png, the picture of the decision map in docs/rules-and-map.md: the bundled example
// copied into a temporary repository, every record stamped, then the invoice totals
// changed in a later commit (so three records are stale), mapped, opened in headless
// Chromium with DEC-BILLING-001 selected.
//
//   npm run build && node scripts/map-screenshot.mjs [out.png]
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'docs/map.png'));
const work = mkdtempSync(path.join(tmpdir(), 'git-ctx-map-'));
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Alice Example', GIT_AUTHOR_EMAIL: 'alice@example.com',
  GIT_COMMITTER_NAME: 'Alice Example', GIT_COMMITTER_EMAIL: 'alice@example.com',
  GIT_AUTHOR_DATE: '2026-03-14T10:00:00Z', GIT_COMMITTER_DATE: '2026-03-14T10:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
};
const git = (...args) => execFileSync('git', args, { cwd: work, env, stdio: ['ignore', 'pipe', 'inherit'] });
const ctx = (...args) => execFileSync(process.execPath, [path.join(root, 'bin/git-ctx.js'), ...args], { cwd: work, env, encoding: 'utf8' });
try {
  cpSync(path.join(root, '.contextia-example'), work, { recursive: true });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'Acme billing example');
  ctx('stamp', '--all');
  git('commit', '-q', '-am', 'Stamp the records');
  appendFileSync(path.join(work, 'src/billing/invoice/totals.ts'), '\nexport const ROUND_PER_INVOICE = true;\n');
  env.GIT_AUTHOR_NAME = 'Bob Example';
  env.GIT_AUTHOR_DATE = env.GIT_COMMITTER_DATE = '2026-05-02T09:30:00Z';
  git('commit', '-q', '-am', 'Round totals per invoice, not per line');
  const file = path.join(work, 'map.html');
  ctx('map', '-o', file, '--title', 'Acme billing: decision map');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 760 } });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-ready="true"]');
    await page.evaluate(() => globalThis.gitCtxMap.select('DEC-BILLING-001', false));
    await page.waitForTimeout(300);
    await page.screenshot({ path: out });
  } finally {
    await browser.close();
  }
  console.log(out);
} finally {
  rmSync(work, { recursive: true, force: true });
}
