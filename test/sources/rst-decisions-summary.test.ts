import { describe, expect, it } from 'vitest';
import { loadSet } from '../helpers/artifact-set.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials30 (openedx/openedx-events' shape): rst records whose decision section is "Decisions"
 * over a numbered list, with ``literals`` and `named references`_, and a settings block whose
 * first lines are comments annotating the setting.
 */
describe('rst records with a Decisions section', () => {
  it('summarise the first decision, references read as their text, and no comment line of a settings block', async () => {
    const repo = makeRepo({
      'docs/decisions/0002-topic-naming.rst': [
        '2. Topic naming',
        '###############',
        '',
        'Status',
        '******',
        '',
        '**Accepted**',
        '',
        'Context',
        '*******',
        '',
        'Topics were named by whoever created them first.',
        '',
        'Decisions',
        '*********',
        '',
        '1. The name of a topic will be a ``string`` that follows the `naming scheme`_',
        'written in the `RFC-12`_:',
        '',
        '2. Old names stay until their consumers move.',
        '',
        '.. _naming scheme: https://example.org/scheme',
        '.. _RFC-12: https://example.org/rfc-12',
        '',
      ].join('\n'),
      'docs/decisions/0003-consumer-settings.rst': [
        '3. Consumer settings',
        '####################',
        '',
        'Status',
        '******',
        '',
        'Accepted',
        '',
        'Decision',
        '********',
        '',
        'Consumers will read their settings from one dictionary, in the following format:',
        '',
        '.. code-block:: python',
        '',
        '   # .. setting_name: CONSUMER_SETTINGS',
        '   # .. setting_default: {}',
        '   CONSUMER_SETTINGS = {',
        "       'orders': {'group': 'billing'},",
        '   }',
        '',
      ].join('\n'),
    });
    repo.commit('records');
    const set = await loadSet(repo.dir);
    expect(set.byId.get('ADR-0002')!.summary).toBe('The name of a topic will be a string that follows the naming scheme written in the RFC-12: Old names stay until their consumers move.');
    expect(set.byId.get('ADR-0003')!.summary).toBe('Consumers will read their settings from one dictionary, in the following format:');
  });
});
