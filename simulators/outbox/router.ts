import express from 'express';
import { memoryLimitDefaults } from '../../src/config';

/** One e-mail the engine sent in test mode (or without SMTP). */
export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  /** The HTML version, when the e-mail has one. */
  html: string | null;
  /** Machine-readable extras for tests (e.g. the login code and loginId). */
  meta: Record<string, string>;
  receivedAt: string;
}

/**
 * The sandbox mailbox: the engine POSTs e-mails here when no SMTP server is configured, and tests
 * read them back (GET /outbox/messages?to=…). Kept in memory, the newest `maxMessages` only
 * (SANDBOX_OUTBOX_MAX_MESSAGES): it is a simulation, not a store.
 */
export function createOutboxRouter(
  maxMessages: number = memoryLimitDefaults.SANDBOX_OUTBOX_MAX_MESSAGES,
): express.Router {
  const router = express.Router();
  const messages: OutboxMessage[] = [];
  let counter = 0;

  router.post('/messages', (req, res) => {
    const body = (req.body ?? {}) as Partial<OutboxMessage>;
    if (typeof body.to !== 'string' || typeof body.subject !== 'string' || typeof body.text !== 'string') {
      res.status(400).json({ message: 'to, subject and text are required strings', code: 'BAD_REQUEST' });
      return;
    }
    const meta = Object.fromEntries(
      Object.entries(body.meta ?? {}).filter(([, value]) => typeof value === 'string'),
    ) as Record<string, string>;
    const message: OutboxMessage = {
      id: `msg_${++counter}`,
      to: body.to.toLowerCase(),
      subject: body.subject,
      text: body.text,
      html: typeof body.html === 'string' ? body.html : null,
      meta,
      receivedAt: new Date().toISOString(),
    };
    messages.push(message);
    if (messages.length > maxMessages) messages.splice(0, messages.length - maxMessages);
    res.status(201).json({ id: message.id });
  });

  router.get('/messages', (req, res) => {
    const to = typeof req.query.to === 'string' ? req.query.to.toLowerCase() : undefined;
    const found = messages.filter((message) => !to || message.to === to).reverse();
    res.json({ data: found });
  });

  router.delete('/messages', (_req, res) => {
    messages.length = 0;
    res.json({ ok: true });
  });

  return router;
}
