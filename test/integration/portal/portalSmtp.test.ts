import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createMerchant } from '../../helpers/fixtures';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { createCustomer, createStore, testVaultEnv } from '../subscriptions/subscriptionsFixtures';

interface Received {
  commands: string[];
  data: string;
}

/** A loopback SMTP server speaking just enough RFC 5321 to accept one message per session. */
function startFakeSmtp(): Promise<{ port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = net.createServer((socket) => {
    const session: Received = { commands: [], data: '' };
    let inData = false;
    let buffer = '';
    socket.setEncoding('utf8');
    socket.write('220 fake.smtp ready\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let index: number;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(session);
            socket.write('250 queued\r\n');
          } else session.data += `${line}\n`;
          continue;
        }
        session.commands.push(line);
        const verb = line.split(' ')[0]!.toUpperCase();
        if (verb === 'EHLO') socket.write('250-fake.smtp\r\n250 AUTH PLAIN\r\n');
        else if (verb === 'AUTH') socket.write('235 ok\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
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

    expect(smtp.received).toHaveLength(1);
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
});
