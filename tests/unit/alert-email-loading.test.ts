/**
 * Every server starts the alert worker (instrumentation.ts), and most never send an alert by
 * e-mail: nodemailer (with its MIME type table, ~240 KB of the server's bundle) loads with the
 * first e-mail, not with the worker. The worker's module is imported in a fresh process with
 * Node's module hooks recording every file read, then one e-mail is sent to a port nothing listens on.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(__dirname, '..', '..');
const url = (file: string) => JSON.stringify(pathToFileURL(join(root, file)).href);

const script = `
import { registerHooks } from 'node:module';
const read = [];
registerHooks({ load(url, context, next) { read.push(url); return next(url, context); } });
const mailer = () => read.some((u) => u.includes('/node_modules/nodemailer/'));
await import(${url('engine/console/alerts.ts')});
const steps = { worker: mailer() };
const { sendEmail } = await import(${url('engine/console/alertEmail.ts')});
const body = JSON.stringify({ text: 'x', alert: { state: 'open', message: 'Buyer down', kind: 'failures', subject: 'acme', at: 'now' } });
steps.sent = (await sendEmail({ url: 'smtp://127.0.0.1:1', from: 'a@example.com', to: ['b@example.com'], timeoutMs: 2000 }, body)).kind;
steps.afterSending = mailer();
console.log(JSON.stringify(steps));
`;

describe('alerts by e-mail', () => {
  it('the alert worker loads no mail library until an e-mail is sent', { timeout: 60_000 }, async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    const steps = JSON.parse(stdout.trim().split('\n').pop()!) as { worker: boolean; sent: string; afterSending: boolean };
    expect(steps.worker).toBe(false);
    // the same check sees it once an e-mail was tried (a refused connection: tried again later)
    expect([steps.sent, steps.afterSending]).toEqual(['retry', true]);
  });
});
