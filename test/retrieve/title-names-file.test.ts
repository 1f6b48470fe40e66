import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { typeNameSignals } from '../../src/retrieve/signals.js';
import { makeRepo } from '../helpers/git-repo.js';

// Shaped like goboot and dotcom-rendering (dev sets, DEC-095): a Go package `config` whose
// `manager.go` declares `Manager` (the record calls it "Config Manager"), a broader config
// record that shares the file's words, a TypeScript file named after the library a record's
// one-word title names ("Emotion"), and a record whose longer title only contains a one-word
// file name ("Template Engine ...").
const adr = (n: string, title: string, body: string) => `# ADR-${n}: ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;

function fixture() {
  const repo = makeRepo({
    '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
    'doc/adr/adr-008-config-structure.md': adr('008', 'Config System Structure and Philosophy', 'The config manager loads configuration modules; each module is a config struct with validation. The manager registers configs by id and the loader reads yaml.'),
    'doc/adr/adr-010-config-safety.md': adr('010', 'Config Manager Behavior and Safety', 'Registration fails on a duplicate id; a config is validated before it is stored.'),
    'doc/adr/adr-004-emotion.md': adr('004', 'Emotion', 'We style components with a CSS-in-JS library and its cache.'),
    'doc/adr/adr-007-css.md': adr('007', 'CSS-in-JS', 'Styles live beside components; the islands client creates the style cache once when hydrating the page.'),
    'doc/adr/adr-014-template-engine.md': adr('014', 'Template Engine, Structure, and Naming Rules', 'Templates render with text/template.'),
    'pkg/config/manager.go': 'package config\n\n// Manager keeps the registered configs by id and validates each before it is stored.\ntype Manager struct {\n\tconfigs map[string]ServiceConfig\n}\n\n// Register validates and stores a config module, loaded from yaml.\nfunc (m *Manager) Register(cfg ServiceConfig) error {\n\tif err := cfg.Validate(); err != nil {\n\t\treturn err\n\t}\n\tm.configs[cfg.ID()] = cfg\n\treturn nil\n}\n',
    'src/client/islands/emotion.ts': "import createCache from '@emotion/cache';\n\n// the style cache the islands client creates once when hydrating the page\nexport const cache = createCache({ key: 'dcr' });\n",
    'pkg/utils/template.go': 'package utils\n\n// Render writes a rendered template.\nfunc Render() {}\n',
    // shaped like Sylius and dotcom-rendering (DEC-099): titles whose terms, not words, are a file's name
    'doc/adr/adr-020-iri.md': adr('020', 'Using IRI as API resource identifier in requests instead of code/id', 'Commands take the IRI of a resource and the API transforms it to a code.'),
    'doc/adr/adr-021-api-translations.md': adr('021', 'API - Translations', 'Translations are embedded in the resource they translate.'),
    'doc/adr/adr-008-static-types.md': adr('008', 'Static types', 'We check the code with TypeScript.'),
    'doc/adr/adr-009-storybook.md': adr('009', 'Use Storybook', 'Components are shown in isolation with their stories.'),
    'src/Sylius/Behat/Context/Api/Resources.php': "<?php\n\nnamespace Sylius\\Behat\\Context\\Api;\n\nfinal class Resources\n{\n    public const ADDRESSES = 'addresses';\n    public const CHANNELS = 'channels';\n}\n",
    'docs/book/api/translations.rst': 'Translations\n============\n\nEach translatable resource embeds its translations.\n',
    'src/components/SignInGate/types.ts': 'export type GateProps = { dismiss: () => void };\n',
    'src/lib/storybook.ts': 'export const decorators = [];\n',
  });
  repo.commit('fixture');
  return repo;
}

describe("a record whose title is the file's name, or its folder and name (DEC-095)", () => {
  it('names the file: the whole title, or the folder and a one-word name written together', async () => {
    const repo = fixture();
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      expect([...typeNameSignals(set, 'src/client/islands/emotion.ts').keys()]).toEqual(['ADR-004']);
      const mgr = typeNameSignals(set, 'pkg/config/manager.go');
      expect([...mgr.keys()]).toEqual(['ADR-010']);
      expect(mgr.get('ADR-010')!.why.text).toMatch(/title names config\/manager/);
      // a one-word name inside a longer title is no mention: several records write such words
      expect(typeNameSignals(set, 'pkg/utils/template.go').size).toBe(0);
      // nor the folder alone
      expect(typeNameSignals(set, 'pkg/config/loader.go').size).toBe(0);
    } finally {
      snapshot.close();
    }
  });

  it('reads the name as the file writes it: no stop word dropped from the title, a one-word name not inflected (DEC-099)', async () => {
    const repo = fixture();
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      // "API resource identifier" writes `api` and `resource`, not the class Resources in the folder Api
      expect(typeNameSignals(set, 'src/Sylius/Behat/Context/Api/Resources.php').size).toBe(0);
      // "Static types" is not the name `types` ("static" is a stop word of code, not of a title)
      expect(typeNameSignals(set, 'src/components/SignInGate/types.ts').size).toBe(0);
      // the folder and the name written as they are still name the file
      expect([...typeNameSignals(set, 'docs/book/api/translations.rst').keys()]).toEqual(['ADR-021']);
      expect([...typeNameSignals(set, 'pkg/config/manager.go').keys()]).toEqual(['ADR-010']);
      // a title that adopts the thing it names ("Use Storybook") is still its name
      expect([...typeNameSignals(set, 'src/lib/storybook.ts').keys()]).toEqual(['ADR-009']);
    } finally {
      snapshot.close();
    }
  });

  it('puts that record first, before a broader one sharing more of the code words', async () => {
    const repo = fixture();
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const ask = (path: string) => retrieveForPlace({ snapshot, set, target: { path }, neighbours: false, staleness: false });
      const mgr = await ask('pkg/config/manager.go');
      expect(mgr.results[0]?.id).toBe('ADR-010');
      expect(mgr.results.map((r) => r.id)).toContain('ADR-008');
      const emo = await ask('src/client/islands/emotion.ts');
      expect(emo.results[0]?.id).toBe('ADR-004');
    } finally {
      snapshot.close();
    }
  });
});
