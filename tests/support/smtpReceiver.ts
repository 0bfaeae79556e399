/**
 * A real SMTP server on a local port (the smtp-server package) standing in for the operator's mail
 * relay: keeps each message's envelope, the user it signed in as and its raw text, and answers the
 * SMTP reply codes it is told to, in turn (then 250), so a test can make a delivery fail and see
 * the retry. Plain text with AUTH allowed (it listens on 127.0.0.1 only).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpReceiver {
  url: (user: string, pass: string) => string;
  /** each message: its envelope, the user it signed in as, its Subject header (unfolded) and its raw text */
  received: { from: string; to: string[]; user: string; subject: string; raw: string }[];
  /** reply codes to answer the next messages with (e.g. 451, 550); after them 250 */
  answers: number[];
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: SmtpReceiver['received'] = [];
  const answers: number[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const code = answers.shift() ?? 250;
        if (code !== 250) {
          const err = Object.assign(new Error(`refused with ${code}`), { responseCode: code });
          return callback(err);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: String(session.user ?? ''),
          subject: (/^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? '').replace(/\r\n[ \t]/g, ' '),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: (user, pass) => `smtp://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    received,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
