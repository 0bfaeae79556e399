/**
 * The cost upload route as the Exports page posts to it, on SQLite: a report saved as UTF-16 (Google
 * Ads' "Excel .csv") is imported like its UTF-8 twin, and a file over the size cap is refused like
 * any other bad upload — audited and shown on the Exports page — rather than answered with a bare
 * error; the form's date order decides how a day with slashes is read.
 */
import type { IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costUploadResult, costUploadRoute } from '../../engine/console/costUpload';
import { hashPassword } from '../../engine/console/passwords';
import { addUser } from '../../engine/store/console';
import { costCells } from '../../engine/store/costs';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { COST_CSV_MAX_BYTES } from '../../engine/traffic/costCsv';
import { CONSOLE_TEST_HOST, consoleSignIn } from '../support/consoleForm';

const dir = mkdtempSync(join(tmpdir(), 'loansites-cost-upload-'));
const ADMIN = 'costs-admin@example.com';
let db: Store;
let session: { cookie: string; csrf: string };

beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 'costs.sqlite') });
  await migrateStore(db);
  await addUser(db, { email: ADMIN, role: 'admin', passwordHash: await hashPassword('costs passphrase 1', { N: 2 ** 12, r: 8, p: 1 }) });
  session = (await consoleSignIn(db, ADMIN, 'costs passphrase 1'))!;
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** The Exports page's form as a browser posts it: multipart, with the session's cookie and token. */
function upload(file: Buffer, fields: Record<string, string>, headers: Record<string, string> = {}): IncomingMessage {
  const boundary = '----loansitesCostForm7MA4YWxk';
  const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = Buffer.concat([
    Buffer.from(
      Object.entries({ csrf: session.csrf, ...fields })
        .map(([k, v]) => part(k, v))
        .join(''),
    ),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const req = Readable.from([body]) as unknown as IncomingMessage;
  Object.assign(req, {
    method: 'POST',
    url: '/api/console/costs',
    headers: {
      host: CONSOLE_TEST_HOST,
      cookie: session.cookie,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(body.length),
      'sec-fetch-site': 'same-origin',
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      ...headers,
    },
    socket: { remoteAddress: '198.51.100.7' },
  });
  return req;
}

const entryOf = (location: string | undefined) => new URL(location ?? '', 'http://x').searchParams.get('costs') ?? '';

describe('the cost upload form', () => {
  it('imports a Google Ads report saved as UTF-16 (tab-separated, with a byte-order mark) as it imports the UTF-8 one', async () => {
    const text =
      'Campaign report\nNovember 1, 2026 - November 2, 2026\nDay\tCampaign\tCurrency code\tCost\tClicks\tImpr.\n2026-11-01\tg-camp\tUSD\t1,234.50\t3\t100\n';
    const r = await costUploadRoute(
      db,
      upload(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), { source: 'google', currency: 'USD' }),
    );
    expect(r.status).toBe(303);
    expect(await costUploadResult(db, entryOf(r.headers?.Location), ADMIN)).toMatchObject({
      ok: true,
      lines: ['1 day-campaign rows from google imported (2026-11-01 … 2026-11-01); 0 replaced earlier imports.'],
    });
    expect(await costCells(db, '2026-11-01', '2026-11-02')).toEqual([
      { day: '2026-11-01', source: 'google', campaign: 'g-camp', currency: 'USD', costCents: 123450, clicks: 3, impressions: 100 },
    ]);
  });

  it('refuses a report a spreadsheet saved as Windows-1252, naming the line, and stores none of it', async () => {
    const text = 'day,campaign,cost\r\n2026-11-07,tx-payday,1.00\r\n2026-11-07,préstamos,2.00\r\n';
    const r = await costUploadRoute(db, upload(Buffer.from(text, 'latin1'), { source: 'generic', currency: 'USD' }));
    expect(r.status).toBe(303);
    expect(await costUploadResult(db, entryOf(r.headers?.Location), ADMIN)).toMatchObject({
      ok: false,
      lines: ['line 3: the campaign "pr\uFFFDstamos" is not UTF-8 text; save the report as “CSV UTF-8” and upload it again'],
    });
    expect(await costCells(db, '2026-11-07', '2026-11-08')).toEqual([]);
  });

  it('says on the Exports page that a campaign longer than a visit keeps was matched by its first 500 characters, and stores it so', async () => {
    const full = `brand-search-exact-${'texas-payday-'.repeat(50)}`;
    const r = await costUploadRoute(db, upload(Buffer.from(`day,campaign,cost\n2026-11-06,${full},2.00\n`), { source: 'generic', currency: 'USD' }));
    expect(await costUploadResult(db, entryOf(r.headers?.Location), ADMIN)).toMatchObject({
      ok: true,
      lines: [
        '1 day-campaign rows from generic imported (2026-11-06 … 2026-11-06); 0 replaced earlier imports; 1 campaign longer than 500 characters matched to its visits by its first 500, all a visit keeps.',
      ],
    });
    expect((await costCells(db, '2026-11-06', '2026-11-07')).map((c) => [c.campaign, c.costCents])).toEqual([[full.slice(0, 500), 200]]);
  });

  it('reads a report’s slash days in the order the form’s “Dates with slashes” says: month-first refuses a day-first report naming the line and suggesting day-first', async () => {
    const report = Buffer.from('Day,Campaign,Cost\n02/10/2026,au-payday,3.00\n28/10/2026,au-payday,4.00\n');
    const monthFirst = await costUploadRoute(db, upload(report, { source: 'google', currency: 'AUD', dayOrder: 'month-first' }));
    expect(await costUploadResult(db, entryOf(monthFirst.headers?.Location), ADMIN)).toMatchObject({
      ok: false,
      lines: ['line 3: the day "28/10/2026" is not a date written month-first (M/D/YYYY); if this file writes the day first, choose day-first'],
      // what the form chose, for the Exports page to choose again: only the date order is to change
      chose: { source: 'google', currency: 'AUD', dayOrder: 'month-first' },
    });
    expect(await costCells(db, '2026-02-10', '2026-02-11')).toEqual([]);
    const dayFirst = await costUploadRoute(db, upload(report, { source: 'google', currency: 'AUD', dayOrder: 'day-first' }));
    expect(await costUploadResult(db, entryOf(dayFirst.headers?.Location), ADMIN)).toMatchObject({
      ok: true,
      lines: ['2 day-campaign rows from google imported (2026-10-02 … 2026-10-28); 0 replaced earlier imports.'],
      chose: { source: 'google', currency: 'AUD', dayOrder: 'day-first' },
    });
    // the audit log says how the file was read
    const entry = await db.selectFrom('console_audit').select('detail').where('id', '=', entryOf(dayFirst.headers?.Location)).executeTakeFirstOrThrow();
    expect(JSON.parse(entry.detail)).toMatchObject({ rows: 2, currency: 'AUD', dayOrder: 'day-first' });
    expect((await costCells(db, '2026-10-01', '2026-10-31')).map((c) => [c.day, c.campaign, c.currency, c.costCents]).sort()).toEqual([
      ['2026-10-02', 'au-payday', 'AUD', 300],
      ['2026-10-28', 'au-payday', 'AUD', 400],
    ]);
  });

  it('refuses a file over the size cap on the Exports page, audited, storing nothing', async () => {
    const big = Buffer.from(`day,campaign,cost\n${'2026-11-05,a,1\n'.repeat(Math.ceil(COST_CSV_MAX_BYTES / 15) + 2000)}`);
    const r = await costUploadRoute(db, upload(big, { source: 'generic', currency: 'USD' }));
    expect(r.status).toBe(303);
    expect(r.headers?.Location).toMatch(/^\/exports\?costs=au[0-9a-f]{24}$/);
    expect(await costUploadResult(db, entryOf(r.headers?.Location), ADMIN)).toMatchObject({
      ok: false,
      lines: ['The file is larger than 2 MB; split it by date range'],
    });
    expect(await costCells(db, '2026-11-05', '2026-11-06')).toEqual([]);
  });

  it('over the rate limit, goes back to the Exports page saying why (nothing imported); an API client asking for JSON keeps its 429', async () => {
    const report = Buffer.from('day,campaign,cost\n2026-11-07,limit,1.00\n');
    let r = await costUploadRoute(db, upload(report, { source: 'generic', currency: 'USD' }));
    for (let i = 0; i < 20 && entryOf(r.headers?.Location) !== 'limited'; i++)
      r = await costUploadRoute(db, upload(report, { source: 'generic', currency: 'USD' }));
    expect(r).toMatchObject({ status: 303, headers: { Location: '/exports?costs=limited' } });
    expect(await costUploadResult(db, 'limited', ADMIN)).toMatchObject({
      ok: false,
      lines: ['Too many uploads: at most 10 a minute each. Wait a minute, then choose the file and upload it again.'],
    });
    const before = await db.selectFrom('console_audit').select('id').where('action', '=', 'cost_import').execute();
    await expect(costUploadRoute(db, upload(report, { source: 'generic' }, { accept: 'application/json' }))).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many cost uploads; try again in \d+ s$/),
    });
    // refused by the limit: neither imported nor written to the audit log
    expect(await db.selectFrom('console_audit').select('id').where('action', '=', 'cost_import').execute()).toEqual(before);
  });
});
