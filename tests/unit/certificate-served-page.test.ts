/**
 * The certificate records the SHA-256 of the form page's HTML as we served it: the bytes this
 * process's page cache holds for the brand's apply page (what every visitor of that version was
 * sent). Through the real lead route: a lead submitted from a cached page carries that page's
 * hash and when the version was rendered, and a buyer hashing the page's bytes gets the same; a
 * version rendered after the borrower's page loaded, or a page not cached, is recorded as null
 * rather than a hash we cannot vouch for; the browser cannot put a hash of its own in.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../engine/cache/boundedPageCache.mjs';
import { certificateProblem } from '../../engine/leads/certificate/certificate';
import { readCertificate } from '../../engine/leads/certificate/issue';
import { servedPage } from '../../engine/leads/certificate/servedPage';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { leadRequest } from '../support/leadRequest';
import { post, startTraceServer, type TraceServer } from '../support/traceServer';

const sha = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');
const STATS = Symbol.for('loansites.boundedPageCache');
const APPLY_HTML = '<!doctype html><html lang="en"><head><title>Apply — iPaydayLoans</title></head><body><form id="apply">é</form></body></html>';

const lead = (submitMs: number, extra: Record<string, unknown> = {}) =>
  leadRequest({ evidence: { page: '/apply', steps: [{ step: 1, shownMs: 100, doneMs: submitMs - 100 }], submitMs, fields: {}, ...extra } });

describe('the page HTML as served, in the certificate', () => {
  let server: TraceServer;
  let db: Store;
  const holder = globalThis as Record<symbol, unknown>;
  const saved = holder[STATS];
  const cache = createStore(8 * 1024 * 1024);
  beforeAll(async () => {
    // the process's page cache, as Next's cache handler makes it: the lead route reads it in-process
    holder[STATS] = cache;
    server = await startTraceServer(
      {
        LEADS_ENCRYPTION_KEY: 'f'.repeat(64),
        LOANSITES_BUYERS_DIR: '',
        LEADS_WORKER: 'off',
        SALE_WORKER: 'off',
        LEAD_DESTINATIONS: '',
        RATE_LIMIT_LEADS: '50',
      },
      ['/api/leads'],
    );
    db = openStore({ url: '', file: server.dbFile });
    await migrateStore(db);
  }, 60_000);
  afterAll(async () => {
    holder[STATS] = saved;
    await db?.destroy();
    await server?.close();
  });

  const submit = async (body: object) => {
    const r = await post(server.port, JSON.stringify(body), { path: '/api/leads' });
    expect(r.status).toBe(201);
    const stored = await readCertificate(db, String(r.json.certificateUrl).replace('/certificate/', ''), new Date());
    expect(certificateProblem(stored!.signed)).toBeUndefined();
    return stored!.signed.certificate;
  };

  it('records the hash of the cached page bytes, the same a buyer gets by hashing the page, with when that version was rendered', async () => {
    cache.set('/_brand/ipaydayloans/apply', { kind: 'PAGES', html: APPLY_HTML, pageData: {} }, { revalidate: 300 });
    const certificate = await submit(lead(12_000));
    expect(certificate.page.htmlSha256).toBe(sha(Buffer.from(APPLY_HTML, 'utf8')));
    expect(Date.parse(certificate.page.htmlCachedAt!)).toBeLessThanOrEqual(Date.now());
    // posted on a local host over http (the Host header has no port): the page as the borrower opened it
    expect(certificate.page.url).toBe('http://ipaydayloans.localhost/apply');
  });

  it('does not take a hash from the browser', async () => {
    cache.delete('/_brand/ipaydayloans/apply');
    const certificate = await submit(lead(45_000, { pageHtmlSha256: 'b'.repeat(64) }));
    expect(certificate.page.htmlSha256).toBeNull();
    expect(certificate.page.htmlCachedAt).toBeNull();
  });

  it('records null when the cached version was rendered after the borrower loaded the page', async () => {
    cache.set('/_brand/ipaydayloans/apply', { kind: 'PAGES', html: `${APPLY_HTML}<!-- v2 -->`, pageData: {} }, { revalidate: 300 });
    // the borrower's page loaded ten minutes before this version was stored
    const certificate = await submit(lead(600_000));
    expect(certificate.page.htmlSha256).toBeNull();
  });

  it('hashes each stored version once, and none without a page cache (REDIS_URL)', () => {
    cache.set('/_brand/usbadcreditloans/apply', { kind: 'PAGES', html: Buffer.from('<p>bytes</p>'), pageData: {} }, { revalidate: 300 });
    const now = new Date();
    expect(servedPage('usbadcreditloans', '/apply', now, () => cache)?.sha256).toBe(sha('<p>bytes</p>'));
    expect(servedPage('usbadcreditloans', '/apply', now, () => undefined)).toBeUndefined();
    expect(servedPage('usbadcreditloans', '/nowhere', now, () => cache)).toBeUndefined();
  });
});
