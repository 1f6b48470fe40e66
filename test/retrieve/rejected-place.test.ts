import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace, retrieveForText } from '../../src/retrieve/engine.js';
import { makeRepo } from '../helpers/git-repo.js';

// Shaped like Sylius's docs/adr (a dev set, DEC-095): MADR records with a `* Status:` line; a
// rejected record (data provider for the channel's locales) and the accepted one that chose the
// other option a year later, both written in the same words; the code is the accepted one's.
const madr = (title: string, status: string, date: string, chosen: string) =>
  `# ${title}\n\n* Status: ${status}\n* Date: ${date}\n\n## Context and Problem Statement\nCustomer should have access only to locales available in their channel\n\n## Considered Options\n\n### Using Doctrine Collection extension\n\n* Good, because it works with the rest of API extensions like pagination\n* Bad, because locales have no relation to channel\n\n### Using Data Provider\n\n* Good, because it is easy to implement\n* Bad, because data providers omit extra Doctrine extensions like pagination\n\n## Decision Outcome\n\nChosen option: ${chosen}. The locale provider and the locale collection extension filter the locales of the channel.\n`;

function fixture(acceptedTitle = 'Using Doctrine Collection extension for getting available locales in active channel') {
  const repo = makeRepo({
    '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
    'docs/adr/2021_07_05_api_providing_locales_data_provider.md':
      madr('Using data provider for getting available locales in active channel', 'rejected', '2021-07-05', 'Using Data Provider') +
      '\nThe provider reads the channel from the context and returns its locales, where a query builder extension would add a where clause to the collection of each resource class.\n',
    'docs/adr/2022_03_15_api_providing_locales_extension.md': madr(acceptedTitle, 'accepted', '2022-03-15', 'Using Doctrine Collection extension'),
    'src/ApiBundle/Doctrine/QueryExtension/Locale/ChannelBasedExtension.php':
      '<?php\n\nnamespace Sylius\\ApiBundle\\Doctrine\\QueryExtension\\Locale;\n\n/** Filters the locales of a collection to those available in the channel. */\nfinal class ChannelBasedExtension implements QueryCollectionExtensionInterface\n{\n    public function applyToCollection(QueryBuilder $queryBuilder, string $resourceClass, array $context = []): void\n    {\n        $channel = $context[\'channel\'];\n        $queryBuilder->andWhere(\'locale IN (:locales)\')->setParameter(\'locales\', $channel->getLocales());\n    }\n}\n',
  });
  repo.commit('fixture');
  return repo;
}

describe('a rejected record at a place (DEC-095)', () => {
  it('gives way to a record in force that asks its question again and that the code meets as well, and is still shown, marked', async () => {
    const repo = fixture();
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const rejected = set.artifacts.find((a) => a.status === 'rejected')!.id;
      const accepted = set.artifacts.find((a) => a.status === 'accepted')!.id;
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'src/ApiBundle/Doctrine/QueryExtension/Locale/ChannelBasedExtension.php' }, neighbours: false, staleness: false });
      const ids = r.results.map((x) => x.id);
      expect(ids[0]).toBe(accepted);
      expect(ids).toContain(rejected);
      expect(r.results.find((x) => x.id === rejected)?.inactive).toBe(true);
      // a question about the data provider is still answered by the record that decided on it
      const q = await retrieveForText({ snapshot, set, text: 'why a data provider for the available locales?' });
      expect(q.results.map((x) => x.id)).toContain(rejected);
    } finally {
      snapshot.close();
    }
  });

  it('keeps its place when no record in force asks its question again: a standing "no" can govern the code', async () => {
    const repo = fixture('Storefront languages');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const rejected = set.artifacts.find((a) => a.status === 'rejected')!.id;
      const r = await retrieveForPlace({ snapshot, set, target: { path: 'src/ApiBundle/Doctrine/QueryExtension/Locale/ChannelBasedExtension.php' }, neighbours: false, staleness: false });
      expect(r.results[0]?.id).toBe(rejected);
    } finally {
      snapshot.close();
    }
  });
});
