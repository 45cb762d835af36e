import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps every message it receives (no auth, no TLS). */
export async function startSmtpServer(): Promise<{ url: string; mails: ReceivedMail[]; waitFor(to: string, count?: number): Promise<ReceivedMail[]>; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, count = 1) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = mails.filter((m) => m.to.includes(to.toLowerCase()));
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`no email to ${to} within 10 s (have ${mails.length})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link to `path` in a raw email (quoted-printable soft breaks and =3D undone). */
export function linkIn(raw: string, path: string): string {
  const decoded = raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
  const match = decoded.match(new RegExp(`https?://[^\\s"'<>]+${path.replace(/[/?]/g, (c) => `\\${c}`)}[^\\s"'<>]*`));
  if (!match) throw new Error(`no ${path} link in email:\n${decoded.slice(0, 2000)}`);
  return match[0].replace(/&amp;/g, '&');
}
