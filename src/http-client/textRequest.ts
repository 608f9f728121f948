import http from 'node:http';
import https from 'node:https';

/**
 * The engine's outbound HTTP on the payment path (processor calls, the 3DS server, the sandbox
 * outbox): node:http through keep-alive agents rather than the built-in fetch, whose AbortSignal,
 * DOMException and web streams cost about four times the CPU per call.
 */
export interface TextRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** One deadline for the whole call: connect, headers and the body read to its end. */
  timeoutMs: number;
}

export interface TextAnswer {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", " (as WHATWG Headers reads them). */
  headers: Record<string, string>;
  text: string;
}

/** The deadline passed; the request was destroyed. Named as AbortSignal.timeout's error is. */
export class RequestTimeoutError extends Error {
  constructor() {
    super('The operation was aborted due to timeout');
    this.name = 'TimeoutError';
  }
}

// One pool per protocol for the process. Free sockets are unref'd by Node (they keep no process
// alive) and closed a second before the server's announced Keep-Alive timeout, or after `timeout`
// for a server that announces none (undici's default, so reuse races stay as rare as with fetch).
// maxSockets is above the worker's 200 concurrent activities: a call queued for a socket when its
// deadline passes would be reported as a timeout (outcome unknown) though it was never sent.
const agentOptions = {
  keepAlive: true,
  maxSockets: 256,
  maxFreeSockets: 64,
  timeout: 4_000,
  scheduling: 'lifo' as const,
};
export const keepAliveAgents = {
  'http:': new http.Agent(agentOptions),
  'https:': new https.Agent(agentOptions),
};

/**
 * Sends one request and reads its whole body as UTF-8 text within `timeoutMs`. Redirects are not
 * followed (node:http never does); any status is an answer. Rejects with RequestTimeoutError on
 * the deadline and with node's own error otherwise (its `code`, e.g. ECONNREFUSED, on the error).
 */
export function requestText(request: TextRequest): Promise<TextAnswer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let outgoing: http.ClientRequest | undefined;
    const settle = (error: Error | undefined, answer?: TextAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error) {
        outgoing?.destroy();
        reject(error);
      } else resolve(answer!);
    };
    const deadline = setTimeout(() => settle(new RequestTimeoutError()), request.timeoutMs);
    try {
      const url = new URL(request.url);
      const agent = url.protocol === 'http:' || url.protocol === 'https:' ? keepAliveAgents[url.protocol] : undefined;
      if (!agent) throw new TypeError(`unsupported protocol ${url.protocol}`);
      const transport = url.protocol === 'https:' ? https : http;
      // Throws at once on a header value node refuses (a line break in a key, say).
      outgoing = transport.request(url, { method: request.method, headers: request.headers, agent });
    } catch (error) {
      settle(error as Error);
      return;
    }
    outgoing.on('error', (error) => settle(error));
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => settle(error));
      response.on('end', () => {
        let text = Buffer.concat(chunks).toString('utf8');
        // Response.text() drops a byte order mark; so does this.
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        settle(undefined, { status: response.statusCode ?? 0, headers: headersOf(response.rawHeaders), text });
      });
      response.on('close', () => {
        if (!response.complete)
          settle(Object.assign(new Error('response ended before its body'), { code: 'ECONNRESET' }));
      });
    });
    outgoing.end(request.body);
  });
}

function headersOf(raw: string[]): Record<string, string> {
  const headers = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const seen = headers.get(name);
    headers.set(name, seen === undefined ? raw[i + 1]! : `${seen}, ${raw[i + 1]!}`);
  }
  return Object.fromEntries(headers);
}
