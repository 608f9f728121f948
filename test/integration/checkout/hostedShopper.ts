/** Undoes the template library's escaping (&amp; &lt; &gt; &#34; &#39;). */
export function decodeHTML(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#34;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** One HTML answer of the hosted page, as a browser without scripts sees it. */
export interface PageAnswer {
  status: number;
  html: string;
  location: string | null;
  headers: Headers;
}

/**
 * A shopper's browser for the hosted page, without scripts: keeps cookies (the CSRF cookie), reads
 * forms' hidden fields, posts forms and does not follow redirects (tests follow them explicitly).
 */
export class Shopper {
  private cookies = new Map<string, string>();

  constructor(private readonly headers: Record<string, string> = {}) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      this.cookies.set(name!.trim(), value.join('='));
    }
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  async open(url: string): Promise<PageAnswer> {
    const response = await fetch(url, { redirect: 'manual', headers: { ...this.headers, ...this.cookieHeader() } });
    this.remember(response);
    return {
      status: response.status,
      html: await response.text(),
      location: response.headers.get('location'),
      headers: response.headers,
    };
  }

  async post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<PageAnswer> {
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        ...this.headers,
        ...this.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
    this.remember(response);
    return {
      status: response.status,
      html: await response.text(),
      location: response.headers.get('location'),
      headers: response.headers,
    };
  }

  forgetCookies(): void {
    this.cookies.clear();
  }
}

/** The hidden fields and action of the form with this id (or the first form with an action ending so). */
export function formOf(html: string, actionSuffix: string): { action: string; fields: Record<string, string> } {
  const forms = [...html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms.find((match) => decodeHTML(match[1]!).endsWith(actionSuffix));
  if (!form) throw new Error(`no form posting to …${actionSuffix}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[input[1]!] = decodeHTML(input[2]!);
  return { action: decodeHTML(form[1]!), fields };
}

/** The href of the element with this id. */
export function linkOf(html: string, id: string): string {
  const match = new RegExp(`href="([^"]*)"[^>]*id="${id}"`).exec(html);
  if (!match) throw new Error(`no link #${id}`);
  return decodeHTML(match[1]!);
}

export const nextYearShort = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');
