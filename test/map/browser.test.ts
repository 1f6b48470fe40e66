import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser, offlinePage, outputDir } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { exampleWithDrift } from './helpers.js';
// @ts-expect-error plain ESM script shared with the benchmark
import { writeSyntheticRepo } from '../../scripts/synthetic-artifacts.mjs';

interface MapWindow {
  gitCtxMap: { cy: { nodes(sel?: string): { length: number }; edges(sel?: string): { length: number }; getElementById(id: string): { renderedPosition(): { x: number; y: number }; visible(): boolean } } };
}

/** What the page rendered: visible nodes and edges, and where a node sits on the screen. */
async function rendered(page: Page) {
  return page.evaluate(() => {
    const cy = (globalThis as unknown as MapWindow).gitCtxMap.cy;
    return { nodes: cy.nodes(':visible').length, edges: cy.edges(':visible').length };
  });
}

async function clickNode(page: Page, id: string): Promise<void> {
  const box = (await page.locator('#cy').boundingBox())!;
  const pos = await page.evaluate((nid) => (globalThis as unknown as MapWindow).gitCtxMap.cy.getElementById(nid).renderedPosition(), id);
  await page.mouse.click(box.x + pos.x, box.y + pos.y);
}

async function openMap(browser: Browser, file: string) {
  const { page, blocked, errors } = await offlinePage(browser);
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return { page, blocked, errors };
}

describe.skipIf(browserMissing)('the decision map in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders the example: nodes and edges, a panel on click, filters, search; no network', async () => {
    const repo = exampleWithDrift();
    const file = path.join(tempDir(), 'map.html');
    expect(runCli(['map', '-o', file], { cwd: repo.dir }).code).toBe(0);
    const { page, blocked, errors } = await openMap(browser, file);

    expect(await rendered(page)).toEqual({ nodes: 19, edges: 25 });
    expect(await page.locator('#counts').textContent()).toBe('19 of 19 records, 25 edges shown');
    // the canvas really drew something: cytoscape's layers are in the page, sized to the pane
    expect(await page.locator('#cy canvas').count()).toBeGreaterThan(0);

    await clickNode(page, 'DEC-BILLING-001');
    const panel = page.locator('#panel');
    await expect.poll(() => panel.getAttribute('data-id')).toBe('DEC-BILLING-001');
    const text = (await panel.textContent())!;
    expect(text).toContain("Round invoice totals with banker's rounding");
    expect(text).toContain('Line totals use round-half-even');
    expect(text).toContain('stale');
    expect(text).toContain('Commits that made it stale');
    expect(text).toContain('Round totals per invoice, not per line');
    expect(text).toContain('supersedes DEC-BILLING-000');
    await page.screenshot({ path: path.join(outputDir('map'), 'example-panel.png') });

    // a relation in the panel leads to the other record
    await panel.locator('a.rel[data-id="DEC-BILLING-000"]').first().click();
    await expect.poll(() => panel.getAttribute('data-id')).toBe('DEC-BILLING-000');

    // filters: hide decisions, then keep only stale records
    await page.locator('input[data-facet="type"][value="decision"]').uncheck();
    expect(await page.getAttribute('body', 'data-visible-nodes')).toBe('11');
    await expect.poll(async () => (await rendered(page)).nodes).toBe(11);
    await page.locator('input[data-facet="type"][value="decision"]').check();
    const others = page.locator('input[data-facet="staleness"]:not([value="stale"])');
    const n = await others.count();
    expect(n).toBeGreaterThan(1);
    for (let i = 0; i < n; i++) await others.nth(i).uncheck();
    // DEC-BILLING-001, SPEC-BILLING-001 and TASK-042 anchor the changed file
    expect(await page.getAttribute('body', 'data-visible-nodes')).toBe('3');
    await expect.poll(async () => (await rendered(page)).nodes).toBe(3);
    await page.screenshot({ path: path.join(outputDir('map'), 'example-stale-only.png') });
    for (let i = 0; i < n; i++) await others.nth(i).check();
    expect(await page.getAttribute('body', 'data-visible-nodes')).toBe('19');
    await expect.poll(async () => (await rendered(page)).nodes).toBe(19);

    // search: fades the rest; Enter opens the first hit
    await page.fill('#search', 'idempotent');
    expect(await page.getAttribute('body', 'data-search-hits')).toBe('1');
    await page.press('#search', 'Enter');
    await expect.poll(() => panel.getAttribute('data-id')).toBe('DEC-BILLING-003');

    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
  });

  it('renders 2,000 records and stays usable', async () => {
    const repo = makeRepo();
    writeSyntheticRepo(repo.dir, 2000);
    repo.commit('synthetic records');
    const file = path.join(tempDir(), 'big.html');
    expect(runCli(['map', '-o', file], { cwd: repo.dir }).code).toBe(0);
    const { page, blocked, errors } = await openMap(browser, file);
    const all = await rendered(page);
    expect(all.nodes).toBe(2000);
    expect(all.edges).toBeGreaterThan(2000);
    await page.locator('input[data-facet="type"][value="task"]').uncheck();
    expect(await page.getAttribute('body', 'data-visible-nodes')).toBe('1800');
    await page.evaluate(() => (globalThis as unknown as { gitCtxMap: { select(id: string, c: boolean): void } }).gitCtxMap.select('DEC-0002', true));
    const text = (await page.locator('#panel').textContent())!;
    expect(text).toContain('Summary of DEC-0002');
    expect(text).toContain('supersedes DEC-0001');
    await page.screenshot({ path: path.join(outputDir('map'), 'synthetic-2000.png') });
    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
  });
});
