import { createTransport } from 'nodemailer';
import type { Config } from '../config';
import { requestText } from '../http-client/textRequest';
import type { Logger } from '../logging/logger';

export interface Mail {
  /** Live mail to real customers must never land in the sandbox outbox. */
  mode: 'test' | 'live';
  to: string;
  subject: string;
  text: string;
  /** The HTML version (a store's e-mail template renders both). */
  html?: string;
  /** Extras the sandbox outbox keeps for tests (never sent over SMTP). */
  meta?: Record<string, string>;
}

export interface MailDeps {
  config: Config;
  logger: Logger;
  sandboxUrl: string;
}

/** Customer e-mail of one API process; `close` ends its pooled SMTP connections. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * With SMTP_URL set, mail goes over SMTP through nodemailer: a pool of connections kept open
 * between codes, STARTTLS whenever the server offers it on `smtp://` (`?requireTLS=true` refuses
 * a server that does not), implicit TLS on `smtps://`, AUTH from the URL's credentials. Without
 * SMTP_URL, test-mode mail is delivered to the sandbox outbox, where test-mode tooling and tests
 * read it, and live-mode mail is refused (MailNotConfiguredError) rather than silently never
 * reaching the customer.
 */
export function createMailer(deps: MailDeps): Mailer {
  const { SMTP_URL: url, SMTP_FROM: from } = deps.config;
  if (url) {
    // Options in the URL's query (nodemailer's own names) win over these defaults.
    const transport = createTransport({
      url,
      pool: true,
      maxConnections: 2,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      send: async (mail) => {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      },
      close: () => transport.close(),
    };
  }
  return { send: (mail) => sendToOutbox(deps.sandboxUrl, mail), close: () => undefined };
}

async function sendToOutbox(sandboxUrl: string, mail: Mail): Promise<void> {
  if (mail.mode === 'live') throw new MailNotConfiguredError();
  const response = await requestText({
    method: 'POST',
    url: `${sandboxUrl}/outbox/messages`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(mail),
    timeoutMs: 5000,
  });
  if (response.status < 200 || response.status > 299) throw new Error(`sandbox outbox answered ${response.status}`);
}

export class MailNotConfiguredError extends Error {
  constructor() {
    super('live-mode e-mail needs SMTP_URL; the sandbox outbox only takes test-mode mail');
    this.name = 'MailNotConfiguredError';
  }
}
