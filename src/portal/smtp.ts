import net from 'node:net';
import tls from 'node:tls';
import type { Mail } from './mailer';

/**
 * A minimal SMTP client (RFC 5321): EHLO, AUTH PLAIN when the URL has credentials, MAIL FROM,
 * RCPT TO, DATA. `smtps://` connects with implicit TLS; `smtp://` is plain (no STARTTLS), for a
 * local relay. Enough for one-time codes without a mail library.
 */
export async function sendSmtpMail(smtpUrl: string, from: string, mail: Mail, timeoutMs = 10_000): Promise<void> {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const port = Number(url.port || (secure ? 465 : 25));
  const socket: net.Socket = secure
    ? tls.connect({ host: url.hostname, port, servername: url.hostname })
    : net.connect({ host: url.hostname, port });
  socket.setTimeout(timeoutMs, () => socket.destroy(new Error('SMTP timeout')));
  socket.setEncoding('utf8');

  let buffer = '';
  const waiting: ((reply: { code: number; text: string }) => void)[] = [];
  const failures: ((error: Error) => void)[] = [];
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    // A reply ends with a line "NNN text" (a hyphen after the code means more lines follow).
    for (
      let match = /(^|\r\n)(\d{3}) [^\r\n]*\r\n/.exec(buffer);
      match;
      match = /(^|\r\n)(\d{3}) [^\r\n]*\r\n/.exec(buffer)
    ) {
      const end = match.index + match[0].length;
      const text = buffer.slice(0, end);
      buffer = buffer.slice(end);
      failures.shift();
      waiting.shift()?.({ code: Number(match[2]), text });
    }
  });
  socket.on('error', (error) => failures.forEach((fail) => fail(error)));

  const reply = () =>
    new Promise<{ code: number; text: string }>((resolve, reject) => {
      waiting.push(resolve);
      failures.push(reject);
    });
  const expect = async (accepted: number[], command?: string) => {
    const answer = reply();
    if (command !== undefined) socket.write(`${command}\r\n`);
    const { code, text } = await answer;
    if (!accepted.includes(code))
      throw new Error(`SMTP ${command?.split(' ')[0] ?? 'greeting'} refused: ${text.trim()}`);
  };

  try {
    await expect([220]);
    await expect([250], `EHLO ${url.hostname === 'localhost' ? 'localhost' : 'payment-engine'}`);
    if (url.username) {
      const auth = Buffer.from(`\0${decodeURIComponent(url.username)}\0${decodeURIComponent(url.password)}`).toString(
        'base64',
      );
      await expect([235], `AUTH PLAIN ${auth}`);
    }
    await expect([250], `MAIL FROM:<${from}>`);
    await expect([250, 251], `RCPT TO:<${mail.to}>`);
    await expect([354], 'DATA');
    const headers = [
      `From: ${from}`,
      `To: ${mail.to}`,
      `Subject: ${mail.subject}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
    ];
    // Dot-stuffing: a line starting with "." gets another one.
    const body = mail.text.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
    await expect([250], `${headers.join('\r\n')}\r\n\r\n${body}\r\n.`);
    await expect([221], 'QUIT').catch(() => undefined);
  } finally {
    socket.destroy();
  }
}
