import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ROOT } from './cli.js';

/** Debian's chromium (apt-get install chromium); CHROMIUM_PATH overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Browser tests run wherever chromium is installed, and always under CI (where a missing
 * chromium must fail, not skip: .ci/run installs it).
 */
export const browserMissing = !existsSync(CHROMIUM) && !process.env.CI;
if (browserMissing) console.warn(`browser tests skipped: ${CHROMIUM} not found (apt-get install chromium, or set CHROMIUM_PATH); under CI they always run`);

/** Where tests leave screenshots for people to look at. */
export function outputDir(...sub: string[]): string {
  const d = path.join(ROOT, 'test-output', ...sub);
  mkdirSync(d, { recursive: true });
  return d;
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * A page that lets only file: and data: URLs through; everything else is aborted and
 * recorded, so a test can assert that the page reached for no network at all.
 */
export async function offlinePage(browser: Browser, viewport = { width: 1400, height: 800 }): Promise<{ page: Page; blocked: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  const blocked: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  // route() sees what the page fetches; 'request' also sees what slips past it
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith('file:') && !url.startsWith('data:') && !blocked.includes(url)) blocked.push(url);
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  return { page, blocked, errors };
}
