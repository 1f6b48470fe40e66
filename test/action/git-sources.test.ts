// The Action fetches pinned git sources with its token (issue 33, DEC-061): the standards
// repository is served over smart HTTP by `git http-backend` behind a check of the
// Authorization header, the way a private GitHub repository answers.
import { execFile, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { useFakeGitHub } from './run-action.js';

const TOKEN = 'ghs_standards_reader';
const BASIC = `basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`;

/** git's smart HTTP protocol for the repositories under `root`, answering 401 to a request without the token. */
function gitHttp(root: string): Promise<{ url: string; server: Server; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    asked.push(auth ? 'with token' : 'without token');
    if (auth.replace(/^basic /i, 'basic ') !== BASIC) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="standards"' });
      res.end('token required\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
        REMOTE_USER: 'x-access-token',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (d: Buffer) => chunks.push(d));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const end = out.indexOf('\r\n\r\n');
      const head = out.subarray(0, end).toString('utf8').split('\r\n');
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
        else headers[k] = v;
      }
      res.writeHead(status, headers);
      res.end(out.subarray(end + 4));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, asked })));
}

const adr = (n: number, title: string, body: string) => `# ${n}. ${title}\n\nDate: 2025-01-0${n}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;

const github = useFakeGitHub();
let http: Awaited<ReturnType<typeof gitHttp>> | undefined;
afterEach(async () => {
  await new Promise((r) => (http ? http.server.close(r) : r(undefined)));
  http = undefined;
});

/** A service whose pull request changes code governed by its own decision, which requires an organisation standard served over HTTP. */
async function scenario(): Promise<{ svc: TestRepo; base: string; head: string; up: TestRepo }> {
  const up = makeRepo({ 'adr/0001-money-in-cents.md': adr(1, 'Keep money in integer cents', 'Money is stored as integer cents.') });
  up.commit('standards');
  up.git('config', 'http.receivepack', 'false');
  up.git('update-server-info');
  http = await gitHttp(path.dirname(up.dir));
  const git = `${http.url}/${path.basename(up.dir)}`;
  const svc = makeRepo({
    '.contextia/config.yaml': `sources:\n  - git: ${git}\n    ref: main\n    dir: adr\n    prefix: ORG-ADR-\n    name: standards\n`,
    '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: Invoices keep cents\nstatus: accepted\npaths: [src/billing/**]\nrequires: [ORG-ADR-0001]\n---\n\nInvoice totals are integer cents.\n',
    'src/billing/invoice.ts': 'export function total(): number {\n  return 100;\n}\n',
  });
  svc.commit('service');
  // the developer pins with their own credentials (here: the token in git's environment)
  const env = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `http.${http.url}/.extraheader`, GIT_CONFIG_VALUE_0: `Authorization: ${BASIC}` };
  // a real process, awaited: the HTTP server answers from this process's event loop
  const pinned = await new Promise<string>((resolve) => execFile(process.execPath, [BIN, 'sources', 'update'], { cwd: svc.dir, env: { ...process.env, ...env } }, (err, _out, stderr) => resolve(err ? `exit ${String((err as { code?: number }).code)}: ${stderr}` : 'ok')));
  expect(pinned).toBe('ok');
  const base = svc.commit('pin standards');
  const head = svc.commit('change invoice', { 'src/billing/invoice.ts': 'export function total(): number {\n  return 101;\n}\n' });
  return { svc, base, head, up };
}

describe('GitHub Action with git sources (real process, fake GitHub, smart HTTP upstream)', () => {
  it('fetches the pinned sources with the configured token before the analysis', async () => {
    const { svc, base, head } = await scenario();
    const { rmSync } = await import('node:fs');
    rmSync(path.join(svc.dir, '.git/ctx'), { recursive: true, force: true });
    const r = await github.pr(svc.dir, { number: 3, base, head }, { inputs: { 'sources-token': TOKEN } });
    expect(r.stdout).not.toMatch(/::error::/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/git-ctx: git source standards at [0-9a-f]{12} \([0-9a-f]{12}\): fetched/);
    expect(http!.asked).toContain('with token');
    expect(r.outputs['artifact-ids']!.split(',')).toEqual(expect.arrayContaining(['DEC-001']));
  });

  it('fails clearly, naming the source, when the token cannot read the standards repository', async () => {
    const { svc, base, head } = await scenario();
    const { rmSync } = await import('node:fs');
    rmSync(path.join(svc.dir, '.git/ctx'), { recursive: true, force: true });
    const r = await github.pr(svc.dir, { number: 4, base, head }, { inputs: { 'sources-token': 'ghs_wrong' } });
    expect(r.code).toBe(1);
    const err = r.stdout.split('\n').find((l) => l.startsWith('::error::'));
    expect(err).toMatch(/^::error::source standards: cannot fetch from http:\/\/127\.0\.0\.1:\d+\/\S+: credentials are missing or refused \(hint: /);
    expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /);
  });
});
