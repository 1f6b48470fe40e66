import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { FakeGitHub, type FakeGitHubOptions } from './fake-github.js';

export const ACTION_BUNDLE = path.join(ROOT, 'action/dist/index.js');

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** workflow commands the Action printed: ::warning file=…::message */
  annotations: { level: string; props: Record<string, string>; message: string }[];
}

/** A pull_request event payload like the one GitHub writes to GITHUB_EVENT_PATH (the fields that matter, real shape). */
export function pullRequestEvent(o: { number: number; base: string; head: string; fork?: boolean; title?: string; body?: string }): Record<string, unknown> {
  const repo = { full_name: 'acme/widgets', name: 'widgets', owner: { login: 'acme' } };
  const headRepo = o.fork ? { full_name: 'mallory/widgets', name: 'widgets', owner: { login: 'mallory' } } : repo;
  return {
    action: 'synchronize',
    number: o.number,
    pull_request: {
      number: o.number,
      state: 'open',
      title: o.title ?? 'Change governed code',
      body: o.body ?? null,
      user: { login: o.fork ? 'mallory' : 'alice' },
      base: { ref: 'main', sha: o.base, label: 'acme:main', repo },
      head: { ref: 'feature', sha: o.head, label: `${headRepo.owner.login}:feature`, repo: headRepo },
    },
    repository: repo,
    sender: { login: o.fork ? 'mallory' : 'alice' },
  };
}

/** GitHub's GITHUB_OUTPUT file format: name<<DELIM\nvalue\nDELIM. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^([^<\n]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) out[m[1]!] = m[3]!;
  return out;
}

function parseAnnotations(stdout: string): ActionRun['annotations'] {
  const res: ActionRun['annotations'] = [];
  for (const line of stdout.split('\n')) {
    const m = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!m) continue;
    const props: Record<string, string> = {};
    for (const kv of (m[2] ?? '').split(',').filter(Boolean)) {
      const i = kv.indexOf('=');
      props[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1).replace(/%2C/g, ',').replace(/%3A/g, ':'));
    }
    res.push({ level: m[1]!, props, message: m[3]!.replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%25/g, '%') });
  }
  return res;
}

export interface RunActionOptions {
  workspace: string;
  apiUrl: string;
  event: Record<string, unknown>;
  eventName?: string;
  inputs?: Record<string, string>;
  env?: NodeJS.ProcessEnv;
}

/**
 * Run the committed bundle as a real process, the way the runner does: inputs as INPUT_*
 * variables, the event payload in a file, summary and outputs as files, the workspace a real
 * repository, and the API base URL pointing at the fake server.
 */
export function runAction(o: RunActionOptions): Promise<ActionRun> {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'git-ctx-action-')));
  dirs.push(dir);
  const eventPath = path.join(dir, 'event.json');
  const summaryPath = path.join(dir, 'summary.md');
  const outputPath = path.join(dir, 'output.txt');
  writeFileSync(eventPath, JSON.stringify(o.event));
  writeFileSync(summaryPath, '');
  writeFileSync(outputPath, '');
  const inputs = { 'github-token': 'ghs_faketoken', ...o.inputs };
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GITHUB_ACTIONS: 'true',
    GITHUB_API_URL: o.apiUrl,
    GITHUB_GRAPHQL_URL: `${o.apiUrl}/graphql`,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_EVENT_NAME: o.eventName ?? 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_SHA: String((o.event.pull_request as { head?: { sha?: string } } | undefined)?.head?.sha ?? ''),
    GITHUB_RUN_ID: '4242',
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_WORKSPACE: o.workspace,
    RUNNER_TEMP: dir,
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...o.env,
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [ACTION_BUNDLE], { cwd: o.workspace, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? Number((err as { code: number }).code) : -1) : 0;
      resolve({
        code,
        stdout,
        stderr,
        outputs: parseOutputs(readFileSync(outputPath, 'utf8')),
        summary: readFileSync(summaryPath, 'utf8'),
        annotations: parseAnnotations(stdout),
      });
    });
  });
}

/** The login GITHUB_TOKEN's comments carry. */
export const BOT = 'github-actions[bot]';

/** The pull request of a `pull_request` event, as pullRequestEvent takes it. */
export type PullRequest = Parameters<typeof pullRequestEvent>[0];

/** A test's fake GitHub and the ways to run the Action against it. */
export interface FakeGitHubRun {
  /** this test's server: its comments, review comments and recorded requests */
  readonly server: FakeGitHub;
  /** Swap this test's server for one that behaves otherwise (a read-only token, a user login). */
  restart(opts: FakeGitHubOptions): Promise<FakeGitHub>;
  /** Run the Action on any event against this server. */
  run(o: Omit<RunActionOptions, 'apiUrl'>): Promise<ActionRun>;
  /** Run the Action on a pull_request event against this server. */
  pr(workspace: string, pr: PullRequest, more?: { inputs?: Record<string, string>; env?: NodeJS.ProcessEnv }): Promise<ActionRun>;
  /** The body of the first comment `login` (the Action's token by default) left on pull request `number`. */
  comment(number: number, login?: string): string | undefined;
}

/**
 * A fresh fake GitHub for every test of the enclosing file or describe block: started before
 * each test, stopped after it, so no test sees another's comments or requests.
 */
export function useFakeGitHub(opts: FakeGitHubOptions = {}): FakeGitHubRun {
  let gh: FakeGitHub | undefined;
  const start = async (o: FakeGitHubOptions) => {
    await gh?.stop();
    gh = new FakeGitHub(o);
    await gh.start();
    return gh;
  };
  beforeEach(async () => {
    await start(opts);
  });
  afterEach(async () => {
    await gh?.stop();
    gh = undefined;
  });
  const server = () => {
    if (!gh) throw new Error('the fake GitHub runs only inside a test');
    return gh;
  };
  const run: FakeGitHubRun['run'] = (o) => runAction({ ...o, apiUrl: server().url });
  return {
    get server() {
      return server();
    },
    restart: start,
    run,
    pr: (workspace, pr, more = {}) => run({ workspace, event: pullRequestEvent(pr), ...more }),
    comment: (number, login = BOT) => server().commentsBy(number, login)[0]?.body,
  };
}
