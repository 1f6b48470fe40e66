#!/usr/bin/env node
// Frontmatter reading alone: the YAML of 5,000 generated records (the search bench's, from
// bench/lib/monorepo.mjs) read with loadYamlStrings from dist/, in one process. Prints the
// first pass (what a cold load pays: the reader loaded and not yet optimised) and the median
// of later passes, CPU of this process. Run after `npm run build`:
//   node bench/frontmatter.mjs [--runs 5] [--dist dist]
import './lib/help.mjs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { arg, ROOT } from './lib/common.mjs';
import { monorepoContent } from './lib/monorepo.mjs';

const RUNS = Number(arg('--runs', 5));
const dist = path.resolve(ROOT, arg('--dist', 'dist'));
const { entries } = monorepoContent({ files: 5400, decisions: 5000, specs: 0, adrs: 0, annotated: 20 });
const { splitFrontmatter, loadYamlStrings } = await import(pathToFileURL(path.join(dist, 'artifacts/parse.js')).href);
const yamls = entries.filter(([p]) => p.startsWith('.contextia/') && p.endsWith('.md')).map(([, c]) => splitFrontmatter(c).yaml);

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const pass = () => {
  const t0 = cpu();
  let bad = 0;
  for (const y of yamls) if (!loadYamlStrings(y).ok) bad++;
  if (bad) throw new Error(`${bad} records did not parse`);
  return cpu() - t0;
};
const first = pass();
const later = Array.from({ length: RUNS }, pass).sort((a, b) => a - b);
console.log(`${yamls.length} frontmatter records (${dist}): first pass ${first.toFixed(0)} ms CPU, later passes median ${later[Math.floor(RUNS / 2)].toFixed(0)} ms CPU`);
