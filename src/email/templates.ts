import { Liquid, type Template } from 'liquidjs';
import type { Db } from '../db/prisma';
import { DomainError, invalid } from '../errors';
import { emailKinds, type EmailKind } from './defaults';

/**
 * Two LiquidJS engines (the hosted page's library): the HTML body escapes every output by default,
 * so a customer's name or a product title can never inject markup; subject and plain text are not
 * HTML and must not be escaped. No `eval`, no file system, no includes: a merchant's template
 * reads only the data it is given. Render time and output size are bounded.
 */
const limits = { renderLimit: 1000, memoryLimit: 2_000_000, parseLimit: 300_000 };
const htmlEngine = new Liquid({ outputEscape: 'escape', strictFilters: true, ...limits });
const textEngine = new Liquid({ strictFilters: true, ...limits });

/**
 * Parsed templates by engine and source text: a store's receipt is parsed once, not for every
 * e-mail (the render limits still apply to every render). Bounded: emptied when full.
 */
const parsedTemplates = new Map<Liquid, Map<string, Template[]>>([
  [htmlEngine, new Map()],
  [textEngine, new Map()],
]);
const parsedTemplatesMax = 500;

function parsedTemplate(engine: Liquid, text: string): Template[] {
  const cache = parsedTemplates.get(engine)!;
  let templates = cache.get(text);
  if (!templates) {
    templates = engine.parse(text);
    if (cache.size >= parsedTemplatesMax) cache.clear();
    cache.set(text, templates);
  }
  return templates;
}

export interface TemplateSource {
  subject: string;
  bodyHtml: string;
  bodyText: string | null;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  /** The store's template id, or null for the engine's default. */
  templateId: string | null;
}

/** Renders a template; a template Liquid cannot parse or run is a 400 TEMPLATE_INVALID naming the part. */
export async function renderTemplate(source: TemplateSource, data: Record<string, unknown>) {
  const part = async (engine: Liquid, text: string, name: string) => {
    try {
      return (await engine.render(parsedTemplate(engine, text), data)) as string;
    } catch (error) {
      throw invalid(`${name} is not a valid template: ${(error as Error).message.split('\n')[0]}`, 'TEMPLATE_INVALID');
    }
  };
  const html = await part(htmlEngine, source.bodyHtml, 'bodyHtml');
  return {
    subject: (await part(textEngine, source.subject, 'subject')).replace(/\s+/g, ' ').trim(),
    html,
    // Without a plain-text body, a text version of the HTML: tags dropped, entities of the escaping undone.
    text: source.bodyText !== null ? await part(textEngine, source.bodyText, 'bodyText') : htmlToText(html),
  };
}

function htmlToText(html: string): string {
  return html
    .replace(/<(br|\/p|\/li|\/h\d)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#34;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** The store's active template of this kind (the most recently changed one), if it has one. */
export function storeTemplate(db: Db, storeId: string, kind: EmailKind) {
  return db.emailTemplate.findFirst({
    where: { storeId, eventType: kind, active: true },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
  });
}

/**
 * The e-mail of one kind for a store: its template when it has an active one, else the engine's
 * default. `data.language` is the shopper's language, for templates that branch on it.
 */
export async function renderStoreEmail(
  db: Db,
  input: { storeId: string; kind: EmailKind; data: Record<string, unknown> },
): Promise<RenderedEmail & { fallbackReason: string | null }> {
  return renderEmailWith(await storeTemplate(db, input.storeId, input.kind), input.kind, input.data);
}

/**
 * Renders the store's template already read (null: none), else the engine's default. A store
 * template that fails to render falls back to the default, so a broken template never stops a
 * receipt or a sign-in code; `fallbackReason` says why.
 */
export async function renderEmailWith(
  template: (TemplateSource & { id: string }) | null,
  kind: EmailKind,
  data: Record<string, unknown>,
): Promise<RenderedEmail & { fallbackReason: string | null }> {
  if (template) {
    try {
      return { ...(await renderTemplate(template, data)), templateId: template.id, fallbackReason: null };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const rendered = await renderTemplate(emailKinds[kind], data);
      return { ...rendered, templateId: null, fallbackReason: error.message };
    }
  }
  return { ...(await renderTemplate(emailKinds[kind], data)), templateId: null, fallbackReason: null };
}
