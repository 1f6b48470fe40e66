import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { retrieveForPlace } from '../../src/retrieve/engine.js';
import { codeWordsOf, curveWords } from '../../src/retrieve/code-words.js';
import { extractPlaceTerms, placeQuery } from '../../src/retrieve/extract.js';
import { searchRecords } from '../../src/retrieve/keyword-cache.js';
import { aboveBackground, BACKGROUND_WEIGHT, placeBackgroundOf } from '../../src/retrieve/place-background.js';
import { runCli } from '../helpers/cli.js';
import { adrText } from '../helpers/adr.js';
import { makeRepo } from '../helpers/git-repo.js';

const SHOPS = ['basket', 'catalogue', 'checkout', 'customer', 'delivery', 'discount', 'gift', 'inventory', 'loyalty', 'newsletter', 'order', 'payment', 'promotion', 'receipt', 'refund', 'return', 'review', 'search', 'shipping', 'stock', 'supplier', 'voucher', 'warehouse', 'wishlist'];

/**
 * A shop backend in ports-and-adapters style, as the dev sets' monorepos are: every service file
 * speaks the architecture's words (service, repository, port, adapter, domain), one long record
 * decides that architecture and says those words throughout, a short one decides how prices
 * are rounded, and the tax service uses both vocabularies. Two files copy the same
 * rounding code into different folders; a colour palette no record is about.
 */
function shop() {
  const files: Record<string, string> = {
    '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
    'doc/adr/0001-ports-and-adapters.md': adrText(
      1,
      'Ports and adapters for every service',
      'Each service talked to its repository and to other services directly, so a domain change touched adapters everywhere. Every service has a repository, a port, an adapter and a domain model.',
      'Every service exposes its domain through a port; a repository is an adapter behind a port; services call each other through ports only, never through another service repository or adapter. The domain model of a service depends on no adapter.',
      'A new service needs a port, a repository adapter and a domain model. Tests replace an adapter behind a port with an in-memory repository. Service, port, adapter, repository and domain are the words of every review.',
    ),
    'doc/adr/0002-round-prices-to-cents.md': adrText(
      2,
      'Round prices half to even in cents',
      'Totals of a basket differed by a cent from the receipt because each line was rounded half up in floating point.',
      'Prices are held as integer cents and rounded half to even (bankers rounding) once, when a total is computed; roundToCents is the one place that rounds.',
      'A total is always the sum of its rounded lines.',
    ),
    'src/money/roundToCents.js': "// bankers rounding: half to even, once per total, in integer cents\nexport function roundToCents(amount) {\n  const cents = amount * 100;\n  const floor = Math.floor(cents);\n  const half = cents - floor === 0.5;\n  return half ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(cents);\n}\n",
    'src/legacy/roundToCents.js': "// bankers rounding: half to even, once per total, in integer cents\nexport function roundToCents(amount) {\n  const cents = amount * 100;\n  const floor = Math.floor(cents);\n  const half = cents - floor === 0.5;\n  return half ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(cents);\n}\n",
    'src/ui/palette.js': "// brand colours of the storefront\nexport const palette = { primary: '#0b3d91', accent: '#ffb000', muted: '#8a8f98' };\nexport const spacing = [0, 4, 8, 16, 32];\n",
    'src/services/tax/taxService.js':
      "import { roundToCents } from '../../money/roundToCents.js';\n// the tax service: its domain behind a port, its repository an adapter\nexport class TaxService {\n  constructor(taxRepositoryPort, domainAdapter) {\n    this.repository = taxRepositoryPort;\n    this.adapter = domainAdapter;\n  }\n  async findTax(id) {\n    const tax = this.adapter.toDomain(await this.repository.find(id));\n    // bankers rounding: half to even, once, in integer cents\n    return { ...tax, amount: roundToCents(tax.amount) };\n  }\n}\n",
  };
  for (const s of SHOPS) {
    const cap = s[0]!.toUpperCase() + s.slice(1);
    files[`src/services/${s}/${s}Service.js`] =
      `// the ${s} service: its domain behind a port, its repository an adapter\nexport class ${cap}Service {\n  constructor(${s}RepositoryPort, domainAdapter) {\n    this.repository = ${s}RepositoryPort;\n    this.adapter = domainAdapter;\n  }\n  async find${cap}(id) {\n    return this.adapter.toDomain(await this.repository.find(id));\n  }\n}\n`;
  }
  const repo = makeRepo(files);
  repo.commit('shop');
  return repo;
}

async function open(dir: string) {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
  const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
  return { snapshot, set };
}

describe("a place's keyword ranking less each record's background (issue 30 items 2 and 3, DEC-075)", () => {
  it('the architecture record stands high beside every service file, the rounding record beside few; the cache answers the second time', async () => {
    const repo = shop();
    const { snapshot, set } = await open(repo.dir);
    try {
      const bg = (await placeBackgroundOf(snapshot, set.artifacts, set.key))!;
      expect(bg.files).toBe(SHOPS.length + 4);
      expect(bg.standing['ADR-0001']!).toBeGreaterThan(0.8);
      expect(bg.standing['ADR-0002'] ?? 0).toBeLessThan(0.3);
      const again = await placeBackgroundOf(snapshot, set.artifacts, set.key);
      expect(again).toEqual(bg);
    } finally {
      snapshot.close();
    }
  });

  it('a service that rounds prices finds the rounding record first, which plain keyword scores put second', async () => {
    const repo = shop();
    const { snapshot, set } = await open(repo.dir);
    try {
      const file = 'src/services/tax/taxService.js';
      const code = (await snapshot.read(file))!.toString('utf8');
      // the words weighed by the curves alone (DEC-055): since DEC-087 the architecture words, in
      // most of this fixture's code files, weigh less still in the place's query and the broad
      // record no longer wins there; the correction is shown on the scores it corrects where such
      // words are in many files but not in most
      const query = placeQuery(extractPlaceTerms(code, file), curveWords(await codeWordsOf(snapshot)));
      const plain = searchRecords(snapshot.root, set.artifacts, query, 50, set.key, { place: true });
      // the fixture is what the correction is for: the broad record wins on plain scores
      expect(plain.map((h) => h.id)).toEqual(['ADR-0001', 'ADR-0002']);
      const bg = (await placeBackgroundOf(snapshot, set.artifacts, set.key))!;
      expect(aboveBackground(plain, bg).map((h) => h.id)).toEqual(['ADR-0002', 'ADR-0001']);
      // a hit is reordered, never dropped, and the best keeps its score
      expect(aboveBackground(plain, { files: 1, standing: {} })).toEqual(plain);
      expect(BACKGROUND_WEIGHT).toBeGreaterThan(0);
      const r = await retrieveForPlace({ snapshot, set, target: { path: file }, neighbours: false, staleness: false });
      expect(r.results[0]?.id).toBe('ADR-0002');
      // a service file that does nothing but the architecture keeps the architecture record
      const plainService = await retrieveForPlace({ snapshot, set, target: { path: 'src/services/wishlist/wishlistService.js' }, neighbours: false, staleness: false });
      expect(plainService.results[0]?.id).toBe('ADR-0001');
    } finally {
      snapshot.close();
    }
  });

  it('the same rounding code in two folders finds the same record first', async () => {
    const repo = shop();
    const { snapshot, set } = await open(repo.dir);
    try {
      for (const file of ['src/money/roundToCents.js', 'src/legacy/roundToCents.js']) {
        const r = await retrieveForPlace({ snapshot, set, target: { path: file }, neighbours: false, staleness: false });
        expect(r.results[0]?.id, file).toBe('ADR-0002');
      }
    } finally {
      snapshot.close();
    }
  });

  it('a file no record is about is answered with nothing by `for --json` and the agent-read hook', () => {
    const repo = shop();
    const json = JSON.parse(runCli(['for', 'src/ui/palette.js', '--json'], { cwd: repo.dir }).stdout);
    expect(json.results).toEqual([]);
    expect(Array.isArray(json.weak)).toBe(true);
    const payload = (file: string) => JSON.stringify({ session_id: 'bg', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(repo.dir, file) }, cwd: repo.dir });
    expect(runCli(['hook', 'agent-read'], { cwd: repo.dir, input: payload('src/ui/palette.js') })).toMatchObject({ code: 0, stdout: '' });
    const governed = runCli(['hook', 'agent-read'], { cwd: repo.dir, input: payload('src/services/tax/taxService.js') });
    expect(JSON.parse(governed.stdout).hookSpecificOutput.additionalContext).toContain('ADR-0002');
  });
});
