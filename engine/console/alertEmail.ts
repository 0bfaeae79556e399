/**
 * Alerts by e-mail, when an SMTP server is configured: ALERT_SMTP_URL (smtp://user:pass@host:port,
 * or smtps:// for TLS from the start), ALERT_EMAIL_FROM and ALERT_EMAIL_TO (addresses separated by
 * commas). Each alert that opens or resolves is queued as an e-mail beside its webhook message and
 * delivered by the same retrying loop (./alerts.ts deliverDue). The URL's credentials stay on the
 * server: the console names the host only.
 * nodemailer is imported when a message is sent, not with this module: the alert worker starts
 * with every server, most of which never send an e-mail, and nodemailer (with its MIME type table)
 * is ~250 KB of JavaScript an idle server would otherwise hold.
 */

export interface Smtp {
  url: string;
  from: string;
  to: string[];
  timeoutMs?: number;
}

/** How one message fared: delivered, refused for good, or to be tried again (with why not). */
export type Sent = { kind: 'delivered' | 'refused' | 'retry'; error?: string };

export function smtpOf(env: Record<string, string | undefined> = process.env): Smtp | undefined {
  const url = env.ALERT_SMTP_URL?.trim();
  const from = env.ALERT_EMAIL_FROM?.trim();
  const to = (env.ALERT_EMAIL_TO ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  if (!url || !from || !to.length) return undefined;
  return { url, from, to };
}

/** The server's host and port, never its credentials (for the console). */
export function smtpHost(smtp: Smtp): string {
  try {
    return new URL(smtp.url).host;
  } catch {
    return 'an SMTP server whose URL cannot be read';
  }
}

/** One alert message (the webhook's JSON body) as an e-mail: its message as the subject and the first line. */
export async function sendEmail(smtp: Smtp, body: string): Promise<Sent> {
  const { text, alert } = JSON.parse(body) as { text: string; alert: { state: string; message: string; kind: string; subject: string; at: string } };
  const ms = smtp.timeoutMs ?? 10_000;
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({ url: smtp.url, connectionTimeout: ms, greetingTimeout: ms, socketTimeout: ms });
  try {
    await transport.sendMail({
      from: smtp.from,
      to: smtp.to,
      subject: `[${alert.state === 'open' ? 'Alert' : 'Resolved'}] ${alert.message}`.slice(0, 200),
      text: `${alert.message}\n\nKind: ${alert.kind}\nWhat: ${alert.subject}\nAt: ${alert.at}\n`,
    });
    return { kind: 'delivered' };
  } catch (err) {
    const e = err as Error & { responseCode?: number };
    // A 5xx reply is the server's "no" for good (a mailbox or sender it refuses); anything else may pass later.
    const kind = e.responseCode !== undefined && e.responseCode >= 500 ? 'refused' : 'retry';
    return { kind, error: (e.message || text).slice(0, 200) };
  } finally {
    transport.close();
  }
}
