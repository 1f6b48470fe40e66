import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace, retrieveForText } from '../../src/retrieve/engine.js';
import { shownWords, surfaceForms } from '../../src/retrieve/text.js';
import { extractPlaceTerms } from '../../src/retrieve/extract.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/** An ADR folder whose records have no status line, and a file of code (issue 30 item 6). */
function fixture() {
  const repo = makeRepo({
    '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
    'docs/adr/0001-charging-courseware.md': '# 1. Charging for courseware\n\n## Context\n\nSchools asked how charges are referenced on invoices.\n\n## Decision\n\nEvery charge references the courseware it pays for.\n',
    'src/billing/charges.ts': '// each charge references its courseware\nexport function chargeReference(courseware: string) {\n  return `charge:${courseware}`;\n}\n',
  });
  repo.commit('fixture');
  return repo;
}

async function open(dir: string) {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
  const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
  return { snapshot, set };
}

describe('readable why and a stable result shape (issue 30 item 6, DEC-053)', () => {
  it('maps each stem to the word as written', () => {
    const f = surfaceForms('Charging referencing coursewares');
    expect([...f.values()]).toEqual(['charging', 'referencing', 'coursewares']);
  });

  it('shows a hyphenated word as written, never a fragment; no prose filler, years or file extensions (DEC-069)', () => {
    const f = surfaceForms('Reject ill-formed metadata after 2021 in README.md');
    expect(f.get('form')).toBe('ill-formed');
    expect(f.get('ill')).toBe('ill-formed');
    expect(shownWords(['ill-formed', 'metadata', 'after', '2021', 'md', 'ill-formed', 'readme', '429'])).toEqual(['ill-formed', 'metadata', 'readme', '429']);
  });

  it("never shows what is left of a contraction (\"don't\" → don) as a matched word: it is no word of the subject", async () => {
    for (const t of ["don't", 'doesn’t', "won't", "we'll", "we've", "isn't", "shouldn't"]) expect(surfaceForms(t).size, t).toBe(0);
    // "re" is kept as a term ("re-render"), never shown alone
    expect(shownWords([...surfaceForms("they're").values()])).toEqual([]);
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'docs/adr/0001-no-retries-in-webhooks.md': "# 1. No retries in webhooks\n\n## Status\n\nAccepted\n\n## Decision\n\nWebhook handlers don't retry; we'll let the sender's queue retry, and we won't keep state.\n",
      'docs/adr/0002-queue-names.md': '# 2. Queue names\n\n## Status\n\nAccepted\n\n## Decision\n\nQueues are named after their sender.\n',
    });
    repo.commit('fixture');
    const { snapshot, set } = await open(repo.dir);
    try {
      const r = await retrieveForText({ snapshot, set, text: "why don't webhook handlers retry? we'll see", staleness: false });
      const hit = r.results.find((x) => x.id === 'ADR-0001')!;
      expect(hit).toBeDefined();
      const kw = hit.why.find((w) => w.kind === 'keywords')!;
      expect(kw.terms).toEqual(expect.arrayContaining(['webhook', 'handlers', 'retry']));
      for (const frag of ['don', 'll', 'won', 've']) expect(kw.terms).not.toContain(frag);
      expect(kw.text).not.toMatch(/\bdon\b|\bll\b/);
    } finally {
      snapshot.close();
    }
  });

  it('trace --json keeps the status key of every record it names, null when the record has none (mentioned, fallback, weak)', () => {
    const repo = makeRepo({
      'docs/adr/0001-charging-courseware.md': '# 1. Charging for courseware\n\n## Decision\n\nEvery charge references the courseware it pays for, in `src/billing/charges.ts`.\n',
      'docs/adr/0002-invoice-numbers.md': '# 2. Invoice numbers\n\n## Decision\n\nInvoices are numbered per school and per year; a charge reference names its courseware.\n',
      'src/billing/charges.ts': '// each charge references its courseware\nexport function chargeReference(courseware: string) {\n  return `charge:${courseware}`;\n}\n',
      'src/billing/refunds.ts': '// a refund references the charge and its courseware\nexport function refundReference(charge: string, courseware: string) {\n  return `refund:${charge}:${courseware}`;\n}\n',
    });
    repo.commit('fixture');
    for (const file of ['src/billing/charges.ts', 'src/billing/refunds.ts']) {
      const r = runCli(['trace', file, '--json'], { cwd: repo.dir });
      expect(r.code, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout) as Record<string, unknown>;
      const named = ['entries', 'mentioned', 'fallback', 'weak'].flatMap((k) => (Array.isArray(j[k]) ? (j[k] as Record<string, unknown>[]) : []));
      expect(named.length, file).toBeGreaterThan(0);
      for (const e of named) if (e.known !== false) expect(e, `${file}: ${String(e.id)}`).toHaveProperty('status', null);
    }
  });

  it("leaves a licence header out of a file's words: boilerplate says nothing of what the code does (DEC-069)", () => {
    const py = '# Copyright 2021, New York University and the TUF contributors\n# SPDX-License-Identifier: MIT OR Apache-2.0\n\n# verify the signature threshold of the root role\ndef verify_root(root):\n    return root.threshold\n';
    const t = extractPlaceTerms(py, 'tuf/api/root.py');
    expect(t.comments).toEqual(expect.arrayContaining(['verify', 'signatur', 'threshold', 'root', 'role']));
    for (const w of ['copyright', '2021', 'york', 'university', 'contributor', 'spdx', 'licens', 'apach', 'mit']) expect(t.comments).not.toContain(w);
    const js = '/*\n * Copyright (c) 2019 Acme Ltd. Licensed under the Apache License, Version 2.0.\n */\n// retried refunds reuse the key\nexport const key = (t) => t.id;\n';
    expect(extractPlaceTerms(js, 'src/key.js').comments).toEqual(['retry', 'refund', 'reus', 'key']);
  });

  it("leaves the Symfony family's header out too: 'This file is part of the … package' and '(c) Name', one # line each in YAML, or an XML comment (DEC-085)", () => {
    const yaml = '# This file is part of the Sylius package.\n# (c) Sylius Sp. z o.o.\n\nframework:\n    messenger:\n        # one bus per context\n        default_bus: sylius.command_bus\n';
    const y = extractPlaceTerms(yaml, 'src/Sylius/Bundle/CoreBundle/Resources/config/app/messenger.yaml');
    expect(y.comments).toEqual(['one', 'bus', 'per', 'context']);
    for (const w of ['file', 'part', 'packag', 'sp', 'o']) expect([...y.comments, ...y.identifiers]).not.toContain(w);
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n\n<!--\n\n This file is part of the Sylius package.\n\n (c) Sylius Sp. z o.o.\n\n For the full copyright and license information, please view the LICENSE\n file that was distributed with this source code.\n\n-->\n\n<container>\n    <!-- resolves the section by the path prefix -->\n    <service id="sylius_api.section_resolver.admin_api" />\n</container>\n';
    const x = extractPlaceTerms(xml, 'src/Sylius/Bundle/ApiBundle/Resources/config/services/section_resolver.xml');
    expect(x.comments).toEqual(expect.arrayContaining(['resolv', 'section', 'path', 'prefix']));
    for (const w of ['file', 'part', 'packag', 'copyright', 'licens', 'distribut', 'pleas']) expect([...x.comments, ...x.identifiers]).not.toContain(w);
    // in code, `<!-- -->` belongs to a string: its words stay the string's
    const ts = 'export const page = () => `<!-- preload the critical scripts -->\n<script defer></script>`;\n';
    expect(extractPlaceTerms(ts, 'src/server/htmlPageTemplate.ts').comments).toEqual([]);
  });

  it('shows the words of the question and of the code, not stems; status is null when the record has none', async () => {
    const repo = fixture();
    const { snapshot, set } = await open(repo.dir);
    try {
      const text = await retrieveForText({ snapshot, set, text: 'referencing charges for coursewares', staleness: false });
      const hit = text.results.find((r) => r.id === 'ADR-0001')!;
      expect(hit).toBeDefined();
      expect(Object.hasOwn(hit, 'status')).toBe(true);
      expect(hit.status).toBeNull();
      const kw = hit.why.find((w) => w.kind === 'keywords')!;
      expect(kw.terms).toEqual(expect.arrayContaining(['referencing', 'charges', 'coursewares']));
      expect(kw.terms).not.toContain('referenc');
      // a hyphenated word met in both its parts is one word: listed once
      const hy = await retrieveForText({ snapshot, set, text: 'charge-references', staleness: false });
      const hk = hy.results[0]!.why.find((w) => w.kind === 'keywords')!;
      expect(hk.terms).toEqual(['charge-references']);
      expect(kw.text).not.toMatch(/\bcoursewar\b|\breferenc\b/);
      expect(JSON.parse(JSON.stringify(text)).results[0]).toHaveProperty('status', null);

      const place = await retrieveForPlace({ snapshot, set, target: { path: 'src/billing/charges.ts' }, neighbours: false, staleness: false });
      const p = place.results.find((r) => r.id === 'ADR-0001')!;
      expect(p.status).toBeNull();
      const pk = p.why.find((w) => w.kind === 'keywords')!;
      expect(pk.terms!.every((t) => !['referenc', 'coursewar', 'charg'].includes(t))).toBe(true);
      expect(pk.terms).toEqual(expect.arrayContaining(['courseware']));
    } finally {
      snapshot.close();
    }
  });

  it("shows a place's hyphenated folder name as matched only where the record writes it; else the word the record wrote", async () => {
    // shaped like a platform repository: a Go command in cmd/open-upgrade-tickets/ and a record that says "tickets" and "upgrade" but never the folder's name
    const repo = makeRepo({
      'architecture-decision-record/001-upgrade-tickets.md': '# 1. Upgrade tickets\n\nDate: 2021-05-11\n\n## Status\n\nAccepted\n\n## Decision\n\nEach cluster upgrade opens tickets for the team, one per component.\n',
      'architecture-decision-record/002-open-upgrade-tickets-tool.md': '# 2. The open-upgrade-tickets tool\n\nDate: 2021-06-01\n\n## Status\n\nAccepted\n\n## Decision\n\nThe open-upgrade-tickets command files the upgrade tickets.\n',
      'cmd/open-upgrade-tickets/main.go': 'package main\n\n// main files one ticket per component of a cluster upgrade\nfunc main() {\n\tcomponent := "kube-proxy"\n\t_ = component\n}\n',
    });
    repo.commit('fixture');
    const { snapshot, set } = await open(repo.dir);
    try {
      const place = await retrieveForPlace({ snapshot, set, target: { path: 'cmd/open-upgrade-tickets/main.go' }, neighbours: false, staleness: false });
      const text = (id: string) => place.results.find((r) => r.id === id)?.why.find((w) => w.kind === 'keywords')?.text ?? '';
      expect(text('ADR-001')).toMatch(/matches /);
      expect(text('ADR-001')).not.toContain('open-upgrade-tickets');
      expect(text('ADR-001')).toMatch(/\b(?:upgrade|tickets?)\b/);
      // the record that writes the name is shown matching it whole
      expect(text('ADR-002')).toContain('open-upgrade-tickets');
    } finally {
      snapshot.close();
    }
  });
});
