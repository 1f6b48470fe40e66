import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A comment as the REST API returns it (the fields the Action reads). */
export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
  html_url: string;
  issue: number;
}

/** A pull request review comment (on a line of the diff), as the REST API returns it. */
export interface FakeReviewComment {
  id: number;
  pull: number;
  body: string;
  path: string;
  commit_id: string;
  line: number;
  start_line?: number;
  side: string;
  user: { login: string; type: string };
  html_url: string;
}

export interface FakeGitHubOptions {
  /** the login user tokens resolve to; undefined = behave like GITHUB_TOKEN (viewer and /user are 403) */
  userLogin?: string;
  /** answer 403 to every comment write, as GitHub does for fork pull requests' read-only token */
  readOnly?: boolean;
  /** open pull requests for GET /repos/{o}/{r}/pulls */
  pulls?: unknown[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
  auth?: string;
}

/**
 * The GitHub REST and GraphQL endpoints the Action uses, on 127.0.0.1 with a random port:
 * comment listing (paginated with Link headers like GitHub's), create, update, delete,
 * the login lookups, and pull listing for workflow_run.
 */
export class FakeGitHub {
  readonly comments: FakeComment[] = [];
  readonly reviewComments: FakeReviewComment[] = [];
  readonly requests: RecordedRequest[] = [];
  private nextId = 1000;
  private server: Server;
  url = '';

  constructor(readonly opts: FakeGitHubOptions = {}) {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => this.send(res, 500, { message: String(e) }));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  /** Seed a comment (another user's, or an earlier run's). */
  addComment(issue: number, login: string, body: string): FakeComment {
    const id = this.nextId++;
    const c = { id, body, issue, user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' }, html_url: `https://github.example/acme/widgets/pull/${issue}#issuecomment-${id}` };
    this.comments.push(c);
    return c;
  }

  /** Comments on an issue whose author is `login`. */
  commentsBy(issue: number, login: string): FakeComment[] {
    return this.comments.filter((c) => c.issue === issue && c.user.login === login);
  }

  writes(): RecordedRequest[] {
    return this.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql');
  }

  private send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  }

  private login(): string {
    return this.opts.userLogin ?? 'github-actions[bot]';
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const u = new URL(req.url ?? '/', this.url);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    const rec: RecordedRequest = { method: req.method ?? 'GET', path: u.pathname, query: Object.fromEntries(u.searchParams), body, auth: req.headers.authorization };
    this.requests.push(rec);
    if (!req.headers.authorization) return this.send(res, 401, { message: 'Requires authentication' });
    const forbidden = { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' };

    if (u.pathname === '/graphql' && req.method === 'POST') {
      if (!this.opts.userLogin) return this.send(res, 403, forbidden);
      return this.send(res, 200, { data: { viewer: { login: this.opts.userLogin } } });
    }
    if (u.pathname === '/user' && req.method === 'GET') {
      if (!this.opts.userLogin) return this.send(res, 403, forbidden);
      return this.send(res, 200, { login: this.opts.userLogin, type: 'User' });
    }
    let m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(u.pathname);
    if (m && req.method === 'GET') {
      const issue = Number(m[3]);
      const per = Math.min(100, Number(u.searchParams.get('per_page') ?? 30));
      const page = Number(u.searchParams.get('page') ?? 1);
      const all = this.comments.filter((c) => c.issue === issue).sort((a, b) => a.id - b.id);
      const last = Math.max(1, Math.ceil(all.length / per));
      const headers: Record<string, string> = {};
      if (page < last) {
        const next = new URL(u.toString());
        next.searchParams.set('page', String(page + 1));
        const lastUrl = new URL(u.toString());
        lastUrl.searchParams.set('page', String(last));
        headers.link = `<${next}>; rel="next", <${lastUrl}>; rel="last"`;
      }
      return this.send(res, 200, all.slice((page - 1) * per, page * per), headers);
    }
    if (m && req.method === 'POST') {
      if (this.opts.readOnly) return this.send(res, 403, forbidden);
      const c = this.addComment(Number(m[3]), this.login(), String(body?.body ?? ''));
      return this.send(res, 201, c);
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(u.pathname);
    if (m) {
      const c = this.comments.find((x) => x.id === Number(m![3]));
      if (!c) return this.send(res, 404, { message: 'Not Found' });
      if (this.opts.readOnly) return this.send(res, 403, forbidden);
      if (c.user.login !== this.login()) return this.send(res, 403, { message: 'not your comment' });
      if (req.method === 'PATCH') {
        c.body = String(body?.body ?? '');
        return this.send(res, 200, c);
      }
      if (req.method === 'DELETE') {
        this.comments.splice(this.comments.indexOf(c), 1);
        return this.send(res, 204);
      }
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/comments$/.exec(u.pathname);
    if (m && req.method === 'GET') {
      const pull = Number(m[3]);
      return this.send(res, 200, this.reviewComments.filter((c) => c.pull === pull).sort((a, b) => a.id - b.id));
    }
    if (m && req.method === 'POST') {
      if (this.opts.readOnly) return this.send(res, 403, forbidden);
      // what GitHub requires of a comment on a line range of the diff
      const b = body ?? {};
      const missing = ['body', 'commit_id', 'path', 'line'].filter((k) => b[k] === undefined);
      if (missing.length || (b.side !== undefined && b.side !== 'RIGHT' && b.side !== 'LEFT') || (b.start_line !== undefined && Number(b.start_line) >= Number(b.line))) {
        return this.send(res, 422, { message: 'Validation Failed', errors: missing.map((k) => ({ field: k, code: 'missing_field' })) });
      }
      const id = this.nextId++;
      const pull = Number(m[3]);
      const login = this.login();
      const c: FakeReviewComment = {
        id, pull, body: String(b.body), path: String(b.path), commit_id: String(b.commit_id), line: Number(b.line), ...(b.start_line !== undefined ? { start_line: Number(b.start_line) } : {}), side: String(b.side ?? 'RIGHT'),
        user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' }, html_url: `https://github.example/acme/widgets/pull/${pull}#discussion_r${id}`,
      };
      this.reviewComments.push(c);
      return this.send(res, 201, c);
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/comments\/(\d+)$/.exec(u.pathname);
    if (m && req.method === 'DELETE') {
      const c = this.reviewComments.find((x) => x.id === Number(m![3]));
      if (!c) return this.send(res, 404, { message: 'Not Found' });
      if (c.user.login !== this.login()) return this.send(res, 403, { message: 'not your comment' });
      this.reviewComments.splice(this.reviewComments.indexOf(c), 1);
      return this.send(res, 204);
    }
    m = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(u.pathname);
    if (m && req.method === 'GET') {
      const head = u.searchParams.get('head');
      const list = (this.opts.pulls ?? []).filter((p) => {
        const h = (p as { head: { label?: string } }).head;
        return !head || h.label === head;
      });
      return this.send(res, 200, list);
    }
    return this.send(res, 404, { message: `Not Found: ${req.method} ${u.pathname}` });
  }
}
