import type { Config } from '../config';
import type { Logger } from '../logging/logger';

export interface Mail {
  /** Live mail to real customers must never land in the sandbox outbox. */
  mode: 'test' | 'live';
  to: string;
  subject: string;
  text: string;
  /** Extras the sandbox outbox keeps for tests (never sent over SMTP). */
  meta?: Record<string, string>;
}

export interface MailDeps {
  config: Config;
  logger: Logger;
  sandboxUrl: string;
}

/**
 * Sends a customer e-mail. With SMTP_URL set it goes over SMTP; otherwise test-mode mail is
 * delivered to the sandbox outbox, where test-mode tooling and tests read it, and live-mode mail
 * is refused (MailNotConfiguredError) rather than silently never reaching the customer.
 */
export async function sendMail(deps: MailDeps, mail: Mail): Promise<void> {
  if (deps.config.SMTP_URL) {
    const { sendSmtpMail } = await import('./smtp');
    await sendSmtpMail(deps.config.SMTP_URL, deps.config.SMTP_FROM, mail);
    return;
  }
  if (mail.mode === 'live') throw new MailNotConfiguredError();
  const response = await fetch(`${deps.sandboxUrl}/outbox/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(mail),
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`sandbox outbox answered ${response.status}`);
}

export class MailNotConfiguredError extends Error {
  constructor() {
    super('live-mode e-mail needs SMTP_URL; the sandbox outbox only takes test-mode mail');
    this.name = 'MailNotConfiguredError';
  }
}
