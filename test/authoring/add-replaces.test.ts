import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { changeCues } from '../../src/authoring/replaces.js';
import { markWeaker, type SimilarRecord } from '../../src/authoring/similar.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// An adr-tools folder (doc/adr, found by .adr-dir) of ten invented records: an event-sourced
// shop's event store, client state, tests, hosting, notifications, dates, API auth, event
// bus and infrastructure. `add` is told when a new decision looks like it replaces one of
// them (DEC-130); restatements stay the similar list's, and neither an unrelated decision nor
// one merely about the same area is said to replace anything.
const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/authoring-replaces/repo');

function fixtureRepo() {
  const repo = makeRepo();
  cpSync(FIX, repo.dir, { recursive: true });
  repo.commit('records');
  return repo;
}

interface Hint {
  id: string;
  change: string[];
  leaves: string[];
  chooses: string[];
  subject: string[];
  reason: string;
}
interface DryRun {
  similar: (SimilarRecord & { weaker?: true })[];
  closest?: SimilarRecord;
  replaces?: Hint[];
}

function dryRun(dir: string, decision: string): DryRun {
  const r = runCli(['add', '--dry-run', '--json', decision], { cwd: dir });
  expect(r.code === 0 || r.code === 1, r.stderr).toBe(true);
  return JSON.parse(r.stdout) as DryRun;
}

// written while the rule was built (tuned on them)
const REPLACEMENTS: [string, string][] = [
  ['Move the event store from PostgreSQL to DynamoDB', 'ADR-0002'],
  ['Stop using Redux; use React context for client state', 'ADR-0003'],
  ['Switch from Jest to Vitest for unit tests', 'ADR-0004'],
  ['Deploy the services to Fly.io instead of Heroku', 'ADR-0005'],
  ['Replace REST polling with WebSocket push for notifications', 'ADR-0006'],
  ['Migrate date handling from Moment.js to date-fns', 'ADR-0007'],
  ['Use DynamoDB for the event store', 'ADR-0002'],
  ['Authenticate API clients with OAuth 2 client credentials instead of JWT', 'ADR-0008'],
  ['No longer use Kafka for the event bus; publish integration events through Amazon SNS', 'ADR-0009'],
  ['Use Pulumi for infrastructure as code', 'ADR-0010'],
  // written after the rule, left as they came
  ['Retire Heroku; run the API and the worker on AWS ECS', 'ADR-0005'],
  ['Phase out Moment.js in favour of the native Intl API', 'ADR-0007'],
  ['Client state moves from Redux to Zustand', 'ADR-0003'],
  ['Use Vitest for unit tests', 'ADR-0004'],
  ['Use server-sent events for notifications rather than REST polling', 'ADR-0006'],
  // a second round, written to break it (4 of 5 before the fixes it led to)
  ['Switch client state to Zustand', 'ADR-0003'],
  ['We no longer deploy to Heroku; the services run on Render', 'ADR-0005'],
  ['Notifications are pushed over WebSockets instead of polled over REST', 'ADR-0006'],
  ['Use Luxon for date handling', 'ADR-0007'],
  ['Authenticate API clients with mutual TLS rather than JWT', 'ADR-0008'],
];
const RESTATEMENTS: [string, string][] = [
  ['Store the domain events in PostgreSQL, one row per event', 'ADR-0002'],
  ['Keep client state of the web app in a Redux store', 'ADR-0003'],
  ['Write unit tests with Jest', 'ADR-0004'],
  ['The web app polls the REST API for notifications every 30 seconds', 'ADR-0006'],
];
const OTHERS = [
  'Use PostgreSQL for reporting queries',
  'Add a projection of the event store for order history',
  'Use Kafka Connect to copy the event store into the data warehouse',
  'Stop using console.log in the API; use the structured logger',
  'Use Playwright for end-to-end tests',
  'Cache exchange rates in Redis for one hour',
  'Replace the hand-written API docs with generated OpenAPI docs',
  'Run database migrations with Flyway at deploy time',
  'Use React Query for server state',
  'Drop support for Internet Explorer 11',
  // written after the rule
  'Stop using Redis for sessions; keep sessions in signed cookies',
  'Use PostgreSQL for the search index',
  'Rotate the JWT signing key every 90 days',
  'Switch the CI runners to ARM machines',
  'Deprecate the v1 notifications endpoint',
  // the second round (2 of 7 named a record before its fixes)
  'Drop events older than two years from the event store',
  'Drop events from the event store after two years',
  'Switch client state persistence to session storage',
  'Stop using the Redux devtools in production',
  'Deprecate the stream version column of the event store',
  'Change the polling interval for notifications from 30 to 60 seconds',
  "Use Redux Toolkit's createAsyncThunk for API calls in client state",
  'Move the Terraform state from local files to an S3 backend',
];

// the frontmatter records of test/fixtures/authoring-similar (.contextia), a third round
const FM_REPLACEMENTS: [string, string][] = [
  ['Move idempotency keys from Redis to DynamoDB', 'DEC-001'],
  ['Use MySQL as the primary database', 'DEC-003'],
  ['Take exchange rates from the treasury service instead of the ECB feed', 'DEC-002'],
  ['Replace Tailwind with CSS modules for the admin interface styles', 'DEC-008'],
  ['Authenticate with opaque session tokens instead of JWTs', 'DEC-009'],
  ['Write logs as plain text instead of JSON', 'DEC-006'],
];
const FM_OTHERS = [
  'Use Postgres as the primary database',
  'Stop using JSON for configuration files; use YAML',
  'Stop using Redis for the session cache',
  'Use GraphQL for the public merchant API. REST stays for webhooks.',
  'Keep nightly backups for 90 days',
  'Drop feature flags older than six months',
];

describe('add: a decision that replaces a record names it (DEC-130)', () => {
  it('on the fixture set: every replacement names its record, no restatement or other decision names one', () => {
    const repo = fixtureRepo();
    const caught = REPLACEMENTS.filter(([d, id]) => dryRun(repo.dir, d).replaces?.[0]?.id === id).length;
    const restated = RESTATEMENTS.filter(([d, id]) => {
      const r = dryRun(repo.dir, d);
      return r.similar[0]?.id === id && !r.replaces;
    }).length;
    const alarms = OTHERS.filter((d) => dryRun(repo.dir, d).replaces).map((d) => d);
    // the figures DEC-130 records
    expect({ caught, restated, alarms }).toEqual({ caught: REPLACEMENTS.length, restated: RESTATEMENTS.length, alarms: [] });
  }, 120_000);

  it('on frontmatter records: every replacement names its record, no other decision names one; --supersedes writes relations.supersedes', () => {
    const repo = makeRepo();
    cpSync(path.resolve(path.dirname(FIX), '../authoring-similar/repo'), repo.dir, { recursive: true });
    repo.commit('records');
    const caught = FM_REPLACEMENTS.filter(([d, id]) => dryRun(repo.dir, d).replaces?.[0]?.id === id).length;
    const alarms = FM_OTHERS.filter((d) => dryRun(repo.dir, d).replaces);
    expect({ caught, alarms }).toEqual({ caught: FM_REPLACEMENTS.length, alarms: [] });
    const w = runCli(['add', 'Use MySQL as the primary database', '--supersedes', 'DEC-003'], { cwd: repo.dir });
    expect(w.code, w.stderr).toBe(0);
    const added = readFileSync(path.join(repo.dir, '.contextia/system/rationale/DEC-011.md'), 'utf8');
    expect(added).toContain("relations:\n  supersedes: [DEC-003]\n");
    expect(readFileSync(path.join(repo.dir, '.contextia/system/rationale/DEC-003.md'), 'utf8')).toMatch(/^status: superseded$/m);
  }, 120_000);

  it('says which words matched, under the documented JSON key `replaces`', () => {
    const repo = fixtureRepo();
    const moved = dryRun(repo.dir, 'Move the event store from PostgreSQL to DynamoDB');
    expect(moved.similar).toEqual([]);
    expect(moved.replaces).toEqual([
      expect.objectContaining({ id: 'ADR-0002', change: ['Move the event store from PostgreSQL'], leaves: ['PostgreSQL'], chooses: ['DynamoDB'], subject: ['event', 'store'] }),
    ]);
    const other = dryRun(repo.dir, 'Use DynamoDB for the event store');
    expect(other.replaces).toEqual([expect.objectContaining({ id: 'ADR-0002', change: [], leaves: ['PostgreSQL'], chooses: ['DynamoDB'] })]);
    expect(other.replaces![0]!.reason).toBe('names another choice (DynamoDB) than ADR-0002 (PostgreSQL) for the same subject: event store');
  });

  it('a title and a decision that each say the change (in their own case) still name the record it leaves', () => {
    const repo = fixtureRepo();
    const titled = (title: string, decision: string) => {
      const r = runCli(['add', '--dry-run', '--json', '--title', title, decision], { cwd: repo.dir });
      expect(r.code === 0 || r.code === 1, r.stderr).toBe(true);
      return JSON.parse(r.stdout) as DryRun;
    };
    const redux = titled('Stop using Redux for client state', 'We will stop using Redux and keep client state in React context.').replaces?.[0];
    expect(redux).toMatchObject({ id: 'ADR-0003', change: ['Stop using Redux'], leaves: ['Redux'] });
    expect(redux?.reason).toBe('"Stop using Redux" leaves Redux, which ADR-0003 names; same subject: client state');
    const moved = titled('Move the event store from PostgreSQL to DynamoDB', 'Its events move from PostgreSQL to DynamoDB tables.').replaces?.[0];
    expect(moved).toMatchObject({ id: 'ADR-0002', leaves: ['PostgreSQL'] });
    expect(moved?.reason).toMatch(/ leaves PostgreSQL, which ADR-0002 names/);
    // a draft that leaves something and still names it as its subject elsewhere is not replacing it
    expect(titled('Keep PostgreSQL for the event store', 'We keep PostgreSQL for the event store and stop using its LISTEN/NOTIFY for projections.').replaces).toBeUndefined();
  });

  it('suggests --supersedes on a dry run and writes nothing; --supersedes writes both records as supersede does', () => {
    const repo = fixtureRepo();
    const d = runCli(['add', '--dry-run', 'Stop using Redux; use React context for client state'], { cwd: repo.dir });
    expect(d.code, d.stderr).toBe(0);
    expect(d.stderr).toContain('looks like it replaces ADR-0003 "Use Redux for client state": "Stop using Redux" leaves Redux, which ADR-0003 names; same subject: client state');
    expect(d.stderr).toContain('to record it: add --supersedes ADR-0003');
    expect(repo.git('status', '--porcelain')).toBe('');

    const w = runCli(['add', 'Stop using Redux; use React context for client state', '--supersedes', 'ADR-0003', '--json'], { cwd: repo.dir });
    expect(w.code, w.stderr).toBe(0);
    expect(JSON.parse(w.stdout)).toMatchObject({ outcome: 'written', id: 'ADR-0011', supersedes: ['ADR-0003'] });
    const old = readFileSync(path.join(repo.dir, 'doc/adr/0003-use-redux-for-client-state.md'), 'utf8');
    expect(old).toContain('Superseded by [Stop using Redux](0011-stop-using-redux.md)');
    const added = readFileSync(path.join(repo.dir, 'doc/adr/0011-stop-using-redux.md'), 'utf8');
    expect(added).toContain('Supersedes [Use Redux for client state](0003-use-redux-for-client-state.md)');
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
  });

  it('without --supersedes a written record names the command that records it, and links nothing', () => {
    const repo = fixtureRepo();
    const w = runCli(['add', 'Migrate date handling from Moment.js to date-fns', '--force'], { cwd: repo.dir });
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).toContain('looks like it replaces ADR-0007');
    expect(w.stderr).toContain('to record it: git ctx supersede ADR-0007 --by ADR-0011');
    expect(readFileSync(path.join(repo.dir, 'doc/adr/0007-use-moment-js-for-date-handling.md'), 'utf8')).toContain('\nAccepted\n');
  });

  it('--supersedes leaves the replaced record out of the similarity check; a proposal or an unknown id is refused', () => {
    const repo = fixtureRepo();
    // similar to ADR-0007 at the threshold: blocked without --supersedes, added with it
    expect(runCli(['add', 'Migrate date handling from Moment.js to date-fns'], { cwd: repo.dir }).code).toBe(1);
    const p = runCli(['add', 'Migrate date handling from Moment.js to date-fns', '--supersedes', 'ADR-0007', '--propose'], { cwd: repo.dir });
    expect(p.code).toBe(2);
    expect(p.stderr).toContain('a proposal is not decided yet');
    expect(runCli(['add', 'Migrate date handling', '--supersedes', 'ADR-0099'], { cwd: repo.dir }).code).toBe(2);
    const w = runCli(['add', 'Migrate date handling from Moment.js to date-fns', '--supersedes', 'ADR-0007'], { cwd: repo.dir });
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).toContain('ADR-0011 supersedes ADR-0007 (status superseded)');
  });
});

describe('add: a record that makes the same change is restated, not replaced (DEC-130)', () => {
  it('"rather than yarn" beside "Use npm instead of yarn" names no record to supersede', () => {
    // git-en-boite's doc/adr 0004, in short
    const rec = (n: number, title: string, decision: string) => `# ${n}. ${title}\n\nDate: 2020-01-0${n}\n\n## Status\n\nAccepted\n\n## Context\n\nWe need a package manager for the monorepo and its CI.\n\n## Decision\n\n${decision}\n\n## Consequences\n\nOne lock file.\n`;
    const repo = makeRepo({
      '.adr-dir': 'doc/adr\n',
      'doc/adr/0001-record-architecture-decisions.md': rec(1, 'Record architecture decisions', 'We will use Architecture Decision Records.'),
      'doc/adr/0002-use-npm-instead-of-yarn.md': rec(2, 'Use npm instead of yarn', 'We will use npm instead of yarn to install packages.'),
      'doc/adr/0003-use-docker-for-ci.md': rec(3, 'Build CI images with Docker', 'CI jobs run in Docker images built from the repository.'),
    });
    repo.commit('records');
    expect(dryRun(repo.dir, 'Use npm as the package manager rather than yarn').replaces).toBeUndefined();
    expect(dryRun(repo.dir, 'Switch from npm to pnpm for installing packages').replaces?.map((h) => h.id)).toEqual(['ADR-0002']);
  });

  it('a record titled in Title Case (Sylius adr/) is reversed by name: its every capitalised word is not a choice', () => {
    const rec = (title: string, decision: string) => `# ${title}\n\n* Status: accepted\n* Date: 2024-05-15\n\n## Context and Problem Statement\n\nThe admin panel needs its own forms.\n\n## Decision Outcome\n\n${decision}\n`;
    const repo = makeRepo({
      'adr/2024_05_15_use_separate_base_form_types.md': rec('Use Separate Base Form Types Instead of Type Extensions', 'The admin panel defines separate base form types instead of extending the shop types with type extensions.'),
      'adr/2024_07_15_api_state_providers_structure.md': rec('API - State Providers Structure', 'State providers of the API live in one directory per resource.'),
      'adr/2024_10_03_services_naming_convention.md': rec('Services Naming Convention', 'Services are named after their class, with the sylius prefix for aliases.'),
    });
    repo.commit('records');
    const r = dryRun(repo.dir, 'Use form type extensions for the admin panel instead of separate base form types');
    expect(r.replaces?.map((h) => [h.id, h.leaves])).toEqual([['ADR-2024-05-15-use-separate-base-form-types', ['Separate Base Form Types']]]);
    expect(dryRun(repo.dir, 'Keep state providers of the API in one directory per resource').replaces).toBeUndefined();
  });
});

describe('changeCues', () => {
  it('finds the change wording and what it leaves, as written', () => {
    const cue = (t: string) => changeCues(t).map((c) => [c.label, c.written, c.object]);
    expect(cue('Move the event store from PostgreSQL to DynamoDB')).toEqual([['from', 'Move the event store from PostgreSQL', 'PostgreSQL']]);
    expect(cue('Replace REST polling with WebSocket push')).toEqual([['replace', 'Replace REST polling', 'REST polling']]);
    expect(cue('We no longer deploy to Heroku.')).toEqual([['no longer', 'no longer deploy to Heroku', 'Heroku']]);
    expect(cue('Switch the CI runners to ARM machines')).toEqual([['switch to', 'Switch the CI runners to', '']]);
    expect(cue('Use PostgreSQL for reporting queries')).toEqual([]);
  });
});

describe('markWeaker', () => {
  it('marks the similar records more than 0.15 under the first, keeping all of them in order', () => {
    const s = (id: string, similarity: number) => ({ id, title: id, file: '', origin: 'repo', similarity, cosine: 0, lexical: 0 }) as SimilarRecord;
    expect(markWeaker([s('A', 1), s('B', 0.9), s('C', 0.78)]).map((x) => [x.id, x.weaker ?? false])).toEqual([
      ['A', false],
      ['B', false],
      ['C', true],
    ]);
    expect(markWeaker([])).toEqual([]);
  });
});
