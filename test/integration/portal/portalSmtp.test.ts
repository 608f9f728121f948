import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { dispatchEventsNow } from '../../../src/events/dispatch';
import { createMerchant } from '../../helpers/fixtures';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { createCustomer, createStore, testVaultEnv } from '../subscriptions/subscriptionsFixtures';
import { until } from '../../helpers/until';
import { recordPaidOrder } from '../email/receiptFixtures';

interface Received {
  commands: string[];
  data: string;
  /** Which connection (1, 2, …) carried the message. */
  connection: number;
  /** Whether the message came after STARTTLS on its connection. */
  encrypted: boolean;
}

/** A throwaway self-signed certificate for the fake server's STARTTLS. */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), 'fake-smtp-'));
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1'].concat([
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
    ]),
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

/**
 * A loopback SMTP server speaking just enough RFC 5321 (and RFC 3207 STARTTLS when given a
 * certificate) to accept messages, several per connection.
 */
function startFakeSmtp(certificate?: {
  key: Buffer;
  cert: Buffer;
}): Promise<{ port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  let connections = 0;
  const server = net.createServer((raw) => {
    const connection = ++connections;
    let socket: net.Socket = raw;
    let encrypted = false;
    let session: Received = { commands: [], data: '', connection, encrypted };
    let inData = false;
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(session);
            session = { commands: [], data: '', connection, encrypted };
            socket.write('250 queued\r\n');
          } else session.data += `${line}\n`;
          continue;
        }
        session.commands.push(line);
        const verb = line.split(' ')[0]!.toUpperCase();
        if (verb === 'EHLO') {
          const offersTls = certificate && !encrypted;
          socket.write(`250-fake.smtp\r\n${offersTls ? '250-STARTTLS\r\n' : ''}250 AUTH PLAIN\r\n`);
        } else if (verb === 'STARTTLS' && certificate) {
          socket.write('220 go ahead\r\n');
          raw.removeListener('data', onData);
          socket = new tls.TLSSocket(raw, { isServer: true, ...certificate });
          socket.on('data', onData);
          socket.on('error', () => undefined);
          encrypted = true;
          session = { commands: [...session.commands], data: '', connection, encrypted };
        } else if (verb === 'AUTH') socket.write('235 ok\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    };
    raw.on('data', onData);
    raw.on('error', () => undefined);
    raw.write('220 fake.smtp ready\r\n');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        received,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

/** Codes are mailed after the login's answer: waits until the fake server has `count` messages. */
async function received(smtp: { received: Received[] }, count: number): Promise<Received[]> {
  return until(() => (smtp.received.length >= count ? smtp.received : undefined), 10_000);
}

async function signInCustomer(harness: Harness) {
  const merchant = await createMerchant(harness.db);
  const store = await createStore(harness.db, merchant);
  const email = `smtp-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await createCustomer(harness.db, merchant, email);
  return { store, email };
}

describe('portal login codes over SMTP', () => {
  let harness: Harness;
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    harness = await startHarness({
      ...testVaultEnv,
      SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${smtp.port}`,
      SMTP_FROM: 'codes@shop.example',
    });
  });
  afterAll(async () => {
    await harness?.stop();
    await smtp?.close();
  });

  it('sends the one-time code by SMTP (not to the outbox) and the code opens a session', async () => {
    const merchant = await createMerchant(harness.db);
    const store = await createStore(harness.db, merchant);
    const email = `smtp-${Date.now()}@example.com`;
    await createCustomer(harness.db, merchant, email);
    const login = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId: store.id, email } });
    expect(login.status).toBe(200);

    expect(await received(smtp, 1)).toHaveLength(1);
    const [message] = smtp.received;
    expect(message!.commands).toEqual(
      expect.arrayContaining([
        `AUTH PLAIN ${Buffer.from('\0mailer\0s3cret').toString('base64')}`,
        'MAIL FROM:<codes@shop.example>',
        `RCPT TO:<${email}>`,
      ]),
    );
    const code = /sign-in code is (\d{6})/.exec(message!.data)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(message!.data).toContain(`To: ${email}`);
    expect(
      ((await (await fetch(`${harness.sandboxUrl}/outbox/messages?to=${email}`)).json()) as any).data,
    ).toHaveLength(0);

    const confirmed = await call(harness, 'POST', '/api/v1/cms/session/confirm', {
      body: { loginId: login.body.loginId, code },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.emailVerified).toBe(true);
  });

  it('a live-mode receipt goes over the same SMTP, never to the outbox, and is recorded sent', async () => {
    const { email, orderId, eventId } = await recordPaidOrder(harness, 'live', 'Live Shop');
    const before = smtp.received.length;
    await dispatchEventsNow({ db: harness.db, temporal: harness.temporal, taskQueue: harness.taskQueue }, [eventId]);
    const message = await until(() =>
      smtp.received.slice(before).find((mail) => mail.commands.includes(`RCPT TO:<${email}>`)),
    );
    expect(message.data).toContain(`Subject: Your Live Shop receipt for order ${orderId}`);
    expect(
      ((await (await fetch(`${harness.sandboxUrl}/outbox/messages?to=${email}`)).json()) as any).data,
    ).toHaveLength(0);
    const row = await until(
      async () => (await harness.db.sentEmail.findFirst({ where: { eventId, sentAt: { not: null } } })) ?? undefined,
    );
    expect(row).toMatchObject({ mode: 'live', kind: 'order/paid', recipient: email });
  });
});

describe('portal login codes over SMTP with STARTTLS and a connection pool', () => {
  let harness: Harness;
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;

  beforeAll(async () => {
    smtp = await startFakeSmtp(selfSignedCertificate());
    harness = await startHarness({
      ...testVaultEnv,
      // The certificate is self-signed; requireTLS refuses a server that does not offer STARTTLS.
      SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${smtp.port}?requireTLS=true&tls.rejectUnauthorized=false`,
      SMTP_FROM: 'codes@shop.example',
    });
  });
  afterAll(async () => {
    await harness?.stop();
    await smtp?.close();
  });

  it('upgrades with STARTTLS before AUTH and sends later codes over the same pooled connection', async () => {
    const { store, email } = await signInCustomer(harness);
    for (let i = 0; i < 3; i++) {
      const login = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId: store.id, email } });
      expect(login.status).toBe(200);
      // One at a time, so the pool's reuse of one connection is what is tested.
      await received(smtp, i + 1);
    }

    expect(smtp.received).toHaveLength(3);
    expect(smtp.received.every((message) => message.encrypted)).toBe(true);
    const first = smtp.received[0]!.commands;
    expect(first.indexOf('STARTTLS')).toBeGreaterThan(-1);
    expect(first.findIndex((command) => command.startsWith('AUTH PLAIN'))).toBeGreaterThan(first.indexOf('STARTTLS'));
    expect(new Set(smtp.received.map((message) => message.connection)).size).toBe(1);
    expect(smtp.received[2]!.commands.filter((command) => /^(EHLO|AUTH)/.test(command))).toEqual([]);
    for (const message of smtp.received) expect(message.data).toMatch(/sign-in code is \d{6}/);
  });
});
