import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const SERVICE = '/twirp/github.actions.results.api.v1.ArtifactService/';

export interface ResultsRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  auth?: string;
  contentType?: string;
  /** x-ms-blob-content-type: the content type the blob is served with */
  blobContentType?: string;
  body: Buffer;
}

export interface FakeArtifact {
  id: number;
  name: string;
  runBackendId: string;
  jobBackendId: string;
  mimeType?: string;
  /** blocks staged on the blob, by block id */
  blocks: Map<string, Buffer>;
  /** the committed blob (block list in order), once committed */
  blob?: Buffer;
  blobContentType?: string;
  finalized?: { size: string; hash?: string };
}

/** A runtime token the way the runner hands it out: a JWT whose `scp` names the run's and job's backend ids. */
export function runtimeToken(runBackendId: string, jobBackendId: string): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ scp: `Actions.GenericRead:00000000 Actions.Results:${runBackendId}:${jobBackendId}`, exp: 4102444800 })}.c2lnbmF0dXJl`;
}

/**
 * The Actions results service (Twirp JSON with protobuf field names, as @actions/artifact sends them) and the blob store behind it, on 127.0.0.1: Twirp JSON
 * CreateArtifact (answering a signed upload URL on this same server), Azure block blob
 * uploads to that URL (Put Block, Put Block List), and FinalizeArtifact. Checks what the
 * real service checks: the bearer token, the backend ids, a signed URL, a committed blob
 * before finalizing, and the size and sha256 the client reports.
 */
export class FakeResults {
  readonly requests: ResultsRequest[] = [];
  readonly artifacts: FakeArtifact[] = [];
  private nextId = 9000;
  private server: Server;
  url = '';

  constructor(readonly opts: { token: string; failCreate?: boolean }) {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => this.send(res, 500, 'text/plain', String(e)));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
    return this.url;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': type, 'x-ms-request-id': `req-${this.requests.length}`, 'x-ms-version': '2025-01-05', ...headers });
    res.end(body);
  }

  private twirpError(res: ServerResponse, status: number, code: string, msg: string): void {
    this.send(res, status, 'application/json', JSON.stringify({ code, msg }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const u = new URL(req.url!, 'http://127.0.0.1');
    const rec: ResultsRequest = {
      method: req.method!,
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      auth: req.headers.authorization,
      contentType: req.headers['content-type'],
      blobContentType: req.headers['x-ms-blob-content-type'] as string | undefined,
      body: Buffer.concat(chunks),
    };
    this.requests.push(rec);
    if (u.pathname.startsWith(SERVICE)) return this.twirp(u.pathname.slice(SERVICE.length), rec, res);
    if (u.pathname.startsWith('/devstoreaccount1/actions-results/')) return this.blob(rec, res);
    this.send(res, 404, 'text/plain', 'not found');
  }

  private twirp(method: string, rec: ResultsRequest, res: ServerResponse): void {
    if (rec.method !== 'POST') return this.twirpError(res, 405, 'bad_route', 'POST only');
    if (rec.auth !== `Bearer ${this.opts.token}`) return this.twirpError(res, 401, 'unauthenticated', 'bad token');
    if (!rec.contentType?.startsWith('application/json')) return this.twirpError(res, 415, 'bad_route', 'JSON only');
    const body = JSON.parse(rec.body.toString('utf8')) as Record<string, unknown>;
    const [run, job] = (/Actions\.Results:([^:"\s]+):([^"\s]+)/.exec(Buffer.from(this.opts.token.split('.')[1]!, 'base64url').toString()) ?? []).slice(1);
    if (body.workflow_run_backend_id !== run || body.workflow_job_run_backend_id !== job) return this.twirpError(res, 400, 'invalid_argument', `backend ids do not match the token: ${JSON.stringify(body)} vs ${run}:${job}`);
    if (method === 'CreateArtifact') {
      if (this.opts.failCreate) return this.twirpError(res, 403, 'permission_denied', 'the token may not create artifacts in this run');
      const a: FakeArtifact = { id: this.nextId++, name: String(body.name), runBackendId: run!, jobBackendId: job!, mimeType: body.mime_type as string | undefined, blocks: new Map() };
      this.artifacts.push(a);
      const signedUploadUrl = `${this.url}devstoreaccount1/actions-results/${a.id}/${encodeURIComponent(a.name)}?sv=2025-01-05&se=2099-01-01T00%3A00%3A00Z&sr=b&sp=cw&sig=fake${a.id}`;
      return this.send(res, 200, 'application/json', JSON.stringify({ ok: true, signed_upload_url: signedUploadUrl }));
    }
    if (method === 'FinalizeArtifact') {
      const a = this.artifacts.find((x) => x.name === body.name && !x.finalized);
      if (!a?.blob) return this.twirpError(res, 404, 'not_found', 'no uploaded artifact of that name');
      if (String(body.size) !== String(a.blob.length)) return this.twirpError(res, 400, 'invalid_argument', `size ${String(body.size)} but ${a.blob.length} bytes were uploaded`);
      a.finalized = { size: String(body.size), hash: body.hash as string | undefined };
      return this.send(res, 200, 'application/json', JSON.stringify({ ok: true, artifact_id: String(a.id) }));
    }
    this.twirpError(res, 404, 'bad_route', `no method ${method}`);
  }

  private blob(rec: ResultsRequest, res: ServerResponse): void {
    const id = Number(rec.path.split('/')[3]);
    const a = this.artifacts.find((x) => x.id === id);
    if (!a || rec.query.sig !== `fake${id}`) return this.send(res, 403, 'application/xml', '<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code><Message>bad signature</Message></Error>');
    const ok = (extra: Record<string, string> = {}) => this.send(res, 201, 'text/plain', '', { 'content-length': '0', date: new Date().toUTCString(), ...extra });
    if (rec.method === 'PUT' && rec.query.comp === 'block') {
      a.blocks.set(rec.query.blockid!, rec.body);
      return ok({ 'x-ms-request-server-encrypted': 'true' });
    }
    if (rec.method === 'PUT' && rec.query.comp === 'blocklist') {
      const ids = [...rec.body.toString('utf8').matchAll(/<(Latest|Uncommitted|Committed)>([^<]*)<\/\1>/g)].map((m) => m[2]!);
      const missing = ids.filter((b) => !a.blocks.has(b));
      if (missing.length) return this.send(res, 400, 'application/xml', '<?xml version="1.0" encoding="utf-8"?><Error><Code>InvalidBlockList</Code><Message>unknown block</Message></Error>');
      a.blob = Buffer.concat(ids.map((b) => a.blocks.get(b)!));
      a.blobContentType = rec.blobContentType;
      return ok({ etag: '"0x8DC0000000000"', 'last-modified': new Date().toUTCString() });
    }
    if (rec.method === 'PUT' && !rec.query.comp) {
      // Put Blob (a single request for small uploads)
      a.blob = rec.body;
      a.blobContentType = rec.blobContentType;
      return ok({ etag: '"0x8DC0000000001"', 'last-modified': new Date().toUTCString() });
    }
    this.send(res, 400, 'application/xml', '<?xml version="1.0" encoding="utf-8"?><Error><Code>UnsupportedOperation</Code></Error>');
  }

  /** The requests that reached the blob store (not the results service). */
  blobRequests(): ResultsRequest[] {
    return this.requests.filter((r) => r.path.startsWith('/devstoreaccount1/'));
  }
}
