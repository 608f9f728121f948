import http from 'node:http';
import https from 'node:https';
import { excerptLength, responseExcerpt } from './responseExcerpt';
import { guardedLookup, systemResolve, type ResolveHost, type UrlPolicy } from './urlGuard';

export interface SendResult {
  /** HTTP status, or undefined when no response came (timeout, refused, blocked address). */
  status?: number;
  latencyMs: number;
  /** A sanitized excerpt of the response body (see responseExcerpt); all that is ever kept of it. */
  snippet?: string;
  error?: string;
}

// Read a little more than the excerpt keeps: stripped control characters must not shorten it.
const readLimit = excerptLength * 4;

/**
 * POSTs one webhook request. Never follows redirects (a 3xx is a failed attempt) and connects
 * only to addresses the URL policy allows, checked on the address actually dialled.
 */
export function sendWebhookRequest(
  url: URL,
  body: string,
  headers: Record<string, string>,
  policy: UrlPolicy,
  timeoutMs: number,
  resolveHost: ResolveHost = systemResolve,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'payment-engine-webhooks/1',
          ...headers,
          'content-length': Buffer.byteLength(body),
        },
        lookup: guardedLookup(policy, resolveHost) as unknown as typeof import('node:dns').lookup,
        timeout: timeoutMs,
      },
      (response) => {
        let head = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (head.length < readLimit) head += chunk.slice(0, readLimit - head.length);
        });
        const snippet = () => responseExcerpt(head) ?? undefined;
        response.on('end', () => resolve({ status: response.statusCode, latencyMs: elapsed(), snippet: snippet() }));
        response.on('error', (error) =>
          resolve({ status: response.statusCode, latencyMs: elapsed(), snippet: snippet(), error: error.message }),
        );
      },
    );
    const deadline = setTimeout(() => request.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    request.on('error', (error) => resolve({ latencyMs: elapsed(), error: error.message }));
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
