// @spec SPEC-MAP-001

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CtxError } from '../errors.js';
import type { MapData } from './data.js';
import { PAGE_CSS, PAGE_JS } from './page.js';

let library: string | undefined;

/** Set by the Action's bundle (scripts/build-action.mjs): the library text itself, as the Action runs without node_modules. */
declare const __GIT_CTX_CYTOSCAPE__: string | undefined;

/**
 * Cytoscape's minified build (MIT, ~430 kB, no dependencies), read from the installed
 * package so the page carries the exact version the package was tested with, and needs no
 * network when it is opened.
 */
export function graphLibrary(): string {
  if (library !== undefined) return library;
  if (typeof __GIT_CTX_CYTOSCAPE__ === 'string') return (library = __GIT_CTX_CYTOSCAPE__);
  let file: string;
  try {
    file = createRequire(import.meta.url).resolve('cytoscape/dist/cytoscape.min.js');
  } catch (e) {
    throw new CtxError('IO', 'the cytoscape package is not installed; git ctx map inlines it into the page', { cause: e, hint: 'reinstall git-ctx (npm install)' });
  }
  library = readFileSync(file, 'utf8');
  return library;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Text that may sit inside a <script> element: no `</script`, no `<!--` (both end or change the element). */
function scriptSafe(js: string): string {
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/** JSON inside <script type="application/json">: `<` escaped, so no value can close the element. */
function jsonForScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * The decision map as one self-contained HTML document: the graph library, the style, the
 * page script and the data all inlined. A Content-Security-Policy forbids any network
 * access from the page (connect, images, fonts, frames), so opening it never reaches out.
 */
export function renderMapHtml(data: MapData): string {
  const sub = `${data.nodes.length} records · ${data.edges.length} edges${data.commit ? ` · ${data.snapshot} at ${data.commit.slice(0, 12)}` : ` · ${data.snapshot}`}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:">
<meta name="generator" content="git-ctx map">
<title>${escapeHtml(data.title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<div id="app">
<aside id="side">
<h1>${escapeHtml(data.title)}</h1>
<div class="sub">${escapeHtml(sub)}</div>
<input id="search" type="search" placeholder="Search id, title, summary, keyword" autocomplete="off">
<div id="filters"></div>
<div id="counts"></div>
<p><button id="fit" type="button">Fit to view</button></p>
<div id="warn"></div>
</aside>
<main id="cy" aria-label="graph of records"></main>
<aside id="panel"><p class="empty">Click a record to see its summary, anchors, drift and the commits behind it.</p></aside>
</div>
<script type="application/json" id="map-data">${jsonForScript(data)}</script>
<script>${scriptSafe(graphLibrary())}</script>
<script>${scriptSafe(PAGE_JS)}</script>
</body>
</html>
`;
}
