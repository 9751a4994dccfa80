import { request as httpsRequest, type RequestOptions } from 'node:https';
import { request as httpRequest } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node' with { 'resolution-mode': 'import' };

/** An answer of the API server. */
export interface KubeResponse {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
}

/** A failed request, with the API server's message (`Status.message`). */
export class KubeError extends Error {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    message: string,
  ) {
    super(`${method} ${path}: ${status} ${message}`);
  }
}

export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: Record<string, unknown>;
}

/**
 * A thin REST client of the Kubernetes API: credentials and TLS from @kubernetes/client-node's
 * KubeConfig (kubeconfig file or in-cluster), requests with Node's https. Plain paths keep
 * server-side apply, status patches and watches explicit.
 */
export class KubeClient {
  private readonly server: URL;

  constructor(private readonly config: KubeConfig) {
    const cluster = config.getCurrentCluster();
    if (cluster === null) throw new Error('kubeconfig has no current cluster');
    this.server = new URL(cluster.server);
  }

  private async options(
    method: string,
    path: string,
    headers: Record<string, string>,
  ): Promise<RequestOptions> {
    const opts: RequestOptions = {
      method,
      protocol: this.server.protocol,
      hostname: this.server.hostname,
      port: this.server.port,
      path: this.server.pathname.replace(/\/$/, '') + path,
      headers: { Accept: 'application/json', ...headers },
    };
    await this.config.applyToHTTPSOptions(opts);
    return opts;
  }

  private send(opts: RequestOptions, body: string | undefined, timeoutMs: number) {
    const request = this.server.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<KubeResponse>((resolve, reject) => {
      const req = request(opts, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text === '' ? undefined : JSON.parse(text);
          } catch {
            // not JSON (proxied answers): keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, text });
        });
        res.on('error', reject);
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`timed out after ${timeoutMs}ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Any request; the answer whatever its status. */
  async raw(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
    timeoutMs = 30_000,
  ): Promise<KubeResponse> {
    const text =
      body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    // An explicit length: the API server ignores a chunked DELETE body (DeleteOptions).
    const headers: Record<string, string> =
      text === undefined
        ? {}
        : { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(text)) };
    return this.send(await this.options(method, path, headers), text, timeoutMs);
  }

  /** A request that must succeed (2xx); throws KubeError otherwise. */
  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    contentType?: string,
  ): Promise<T> {
    const res = await this.raw(method, path, body, contentType);
    if (res.status < 200 || res.status > 299) {
      const message =
        (res.body as { message?: string } | undefined)?.message ?? res.text.slice(0, 300);
      throw new KubeError(res.status, method, path, message);
    }
    return res.body as T;
  }

  /** GET that answers undefined for 404. */
  async get<T = Record<string, unknown>>(path: string): Promise<T | undefined> {
    const res = await this.raw('GET', path);
    if (res.status === 404) return undefined;
    if (res.status < 200 || res.status > 299)
      throw new KubeError(
        res.status,
        'GET',
        path,
        (res.body as { message?: string })?.message ?? res.text,
      );
    return res.body as T;
  }

  /**
   * Watches a collection until `signal` aborts or the server ends the stream (then resolves;
   * the caller re-watches). Each JSON line is one event.
   */
  async watch(
    path: string,
    onEvent: (event: WatchEvent) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const sep = path.includes('?') ? '&' : '?';
    const opts = await this.options('GET', `${path}${sep}watch=true&allowWatchBookmarks=false`, {});
    const request = this.server.protocol === 'https:' ? httpsRequest : httpRequest;
    await new Promise<void>((resolve, reject) => {
      const req = request({ ...opts, signal }, (res) => {
        if ((res.statusCode ?? 0) >= 300) {
          res.resume();
          reject(new KubeError(res.statusCode ?? 0, 'WATCH', path, res.statusMessage ?? ''));
          return;
        }
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let nl: number;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, nl).trim();
            buffer = buffer.slice(nl + 1);
            if (line !== '') onEvent(JSON.parse(line) as WatchEvent);
          }
        });
        res.on('end', () => resolve());
        res.on('error', (err) => (signal.aborted ? resolve() : reject(err)));
      });
      req.on('error', (err) => (signal.aborted ? resolve() : reject(err)));
      req.end();
    });
  }
}

/** Loads credentials: a kubeconfig file, or the pod's service account when none is given. */
export async function loadKubeConfig(file: string | undefined): Promise<KubeConfig> {
  const { KubeConfig: Config } = await import('@kubernetes/client-node');
  const config = new Config();
  if (file !== undefined) config.loadFromFile(file);
  else config.loadFromCluster();
  return config;
}
