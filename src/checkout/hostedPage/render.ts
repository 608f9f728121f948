import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { Liquid, type Template } from 'liquidjs';
import { funnelEndTemplate, offerTemplate } from './funnelTemplates';
import { cardFormScript, continueScript, offerScript, pageCss } from './styles';
import { checkoutTemplate, layoutTemplate, noticeTemplate, resultTemplate } from './templates';

/**
 * LiquidJS: no dependencies, no `eval` (templates written by merchants later render with the same
 * engine), HTML-escapes every output unless a template says `raw`, and an unknown variable or
 * filter is an error rather than an empty string.
 */
export const liquid = new Liquid({ outputEscape: 'escape', strictFilters: true, cache: false });

const parsed = new Map<string, Template[]>();
function parse(source: string): Template[] {
  let templates = parsed.get(source);
  if (!templates) parsed.set(source, (templates = liquid.parse(source)));
  return templates;
}

const pages = {
  checkout: { source: checkoutTemplate, script: cardFormScript },
  result: { source: resultTemplate, script: continueScript },
  notice: { source: noticeTemplate, script: null },
  offer: { source: offerTemplate, script: offerScript },
  funnelEnd: { source: funnelEndTemplate, script: null },
} as const;

export type PageName = keyof typeof pages;

/**
 * A strict policy: nothing from another origin, inline style and script only with this answer's
 * nonce, forms post only to this origin, never framed.
 */
function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Renders a page into the layout and sends it with its security headers. */
export async function sendPage(
  res: Response,
  status: number,
  page: PageName,
  data: Record<string, unknown> & { title: string; language?: string; refreshSeconds?: number },
): Promise<void> {
  const nonce = randomBytes(16).toString('base64');
  const { source, script } = pages[page];
  const body = await liquid.render(parse(source), data);
  const html = await liquid.render(parse(layoutTemplate), {
    language: data.language ?? 'en',
    title: data.title,
    refreshSeconds: data.refreshSeconds ?? null,
    nonce,
    css: pageCss,
    script,
    body,
  });
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(nonce));
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.status(status).type('html').send(html);
}

/** A page that says what happened to a link or session, never a stack trace. */
export function sendNotice(
  res: Response,
  status: number,
  notice: { heading: string; message: string; linkUrl?: string | null; linkText?: string },
): Promise<void> {
  return sendPage(res, status, 'notice', {
    title: notice.heading,
    heading: notice.heading,
    message: notice.message,
    linkUrl: notice.linkUrl ?? null,
    linkText: notice.linkText ?? '',
  });
}
