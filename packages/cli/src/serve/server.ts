import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TimelineFilter, TimelineView } from '@aitrail/analyzer';
import { PAGE_SCRIPT, servePage } from './page.js';

/** A running `aitrail serve`. */
export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const FILTERS = ['agent', 'user', 'host', 'session', 'turn_type', 'from', 'to', 'q'] as const;

// Only this page's own script, and requests back to this server: evidence text cannot run or call out.
const POLICY = `default-src 'none'; script-src 'sha256-${createHash('sha256').update(PAGE_SCRIPT).digest('base64')}'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/**
 * Serve timeline.sqlite read-only on 127.0.0.1 (port 0: an ephemeral port). GET only; a request
 * whose Host header is not this address is refused, so a web page the analyst visits cannot
 * read the evidence through DNS rebinding.
 */
export async function startServer(dbPath: string, port = 0, title = 'aitrail timeline'): Promise<RunningServer> {
  const view = TimelineView.open(dbPath);
  const page = servePage(title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`));
  let allowed = new Set<string>();
  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (e) {
      send(res, 500, { error: `the query failed: ${(e as Error).message}` });
    }
  });
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (!allowed.has(req.headers.host ?? '')) return send(res, 421, { error: `expected Host ${[...allowed][0]}, found ${req.headers.host ?? 'none'}: open the URL aitrail serve printed` });
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: `read-only: expected GET, found ${req.method}` });
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') return send(res, 200, page, 'text/html; charset=utf-8');
    if (url.pathname === '/api/facets') return send(res, 200, view.facets());
    if (url.pathname === '/api/rows') {
      const f: TimelineFilter = {};
      for (const k of FILTERS) {
        const v = url.searchParams.get(k);
        if (v) f[k] = v;
      }
      return send(res, 200, view.query(f, Number(url.searchParams.get('offset') ?? 0), Number(url.searchParams.get('limit') ?? 100)));
    }
    send(res, 404, { error: `no such page: ${url.pathname}` });
  };
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(port, '127.0.0.1', () => res());
  });
  const addr = server.address() as AddressInfo;
  allowed = new Set([`127.0.0.1:${addr.port}`, `localhost:${addr.port}`]);
  return {
    url: `http://127.0.0.1:${addr.port}/`,
    server,
    close: () =>
      new Promise<void>((res) => {
        server.closeAllConnections();
        server.close(() => {
          view.close();
          res();
        });
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json; charset=utf-8'): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, 'content-security-policy': POLICY, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });
  res.end(text);
}
