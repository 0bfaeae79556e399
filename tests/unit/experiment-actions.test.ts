/**
 * Pausing, resuming and stopping an experiment from its console page (POST /api/console/experiments,
 * engine/console/experimentActions.ts) on SQLite and a real PostgreSQL: each action publishes a
 * new revision of the brand (the studio's path: validated, audited with the document before and
 * after, announced to every instance); a form drawn from an older version changes nothing and
 * says so; only admins and editors of the brand may, and a forged post is refused.
 */
import { describe, expect, it } from 'vitest';
import type { Brand } from '../../schemas/brand.types';
import { experimentActionRoute } from '../../engine/console/experimentActions';
import { hashPassword } from '../../engine/console/passwords';
import type { Role } from '../../engine/console/roles';
import { brandDraft, publishBrand, publishedBrand, saveBrandDraft } from '../../engine/store/brandRevisions';
import { addUser } from '../../engine/store/console';
import { STUDIO_RATE } from '../../engine/console/studioApi';
import { rateLimiter } from '../../engine/http/rateLimit';
import { bothStores, migratedStore } from '../support/bothStores';
import { consolePost, consoleSignIn } from '../support/consoleForm';

const stores = bothStores('loansites-experiment-actions-');
const cheap = { N: 2 ** 12, r: 8, p: 1 };
const BRAND = 'ipaydayloans';
const EXPERIMENT = 'payday-hero-headline';
type Who = { cookie: string; csrf: string };

describe.each(stores.kinds('experiment-actions.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);
  const announced: number[] = [];
  const post = async (who: Who, fields: Record<string, string>, headers: Record<string, string> = {}, ip = '198.51.100.9') => {
    try {
      const req = consolePost({ csrf: who.csrf, brand: BRAND, experiment: EXPERIMENT, ...fields }, { cookie: who.cookie, ...headers });
      Object.assign(req, { socket: { remoteAddress: ip } });
      const r = await experimentActionRoute(db(), req, { announce: async () => void announced.push(Date.now()) });
      return { status: r.status, location: r.headers?.Location ?? '' };
    } catch (err) {
      const e = err as { status?: number; message: string };
      if (!e.status) throw err;
      return { status: e.status, location: '', error: e.message };
    }
  };
  const user = async (email: string, role: Role, brands?: string[]): Promise<Who> => {
    await addUser(db(), { email, role, passwordHash: await hashPassword('a long passphrase 1', cheap), brands });
    return (await consoleSignIn(db(), email, 'a long passphrase 1'))!;
  };
  const live = async () => (await publishedBrand(db(), BRAND))?.document.experiments?.find((e) => e.id === EXPERIMENT);
  let admin: Who, editor: Who, otherEditor: Who, analyst: Who;

  it('an editor of the brand pauses it: a new published revision, audited with before and after, announced', async () => {
    admin = await user('admin@example.com', 'admin');
    editor = await user('editor@example.com', 'editor', [BRAND]);
    otherEditor = await user('other@example.com', 'editor', ['cocoloan']);
    analyst = await user('analyst@example.com', 'analyst');
    const r = await post(editor, { op: 'pause', version: '0' });
    expect(r).toEqual({ status: 303, location: `/experiments/${EXPERIMENT}?brand=${BRAND}&note=paused` });
    expect(await live()).toMatchObject({ status: 'paused' });
    expect(announced).toHaveLength(1);
    const audited = await db().selectFrom('console_audit').select(['action', 'actor', 'detail']).orderBy('at').execute();
    const published = audited.find((a) => a.action === 'brand_published')!;
    const detail = JSON.parse(published.detail) as { before: Brand; after: Brand };
    expect(detail.before.experiments![0]!.status).toBe('running');
    expect(detail.after.experiments![0]!.status).toBe('paused');
    expect(audited.find((a) => a.action === 'experiment_paused')).toMatchObject({ actor: 'editor@example.com' });
  });

  it('a form drawn from an older version changes nothing and says someone published since', async () => {
    const r = await post(admin, { op: 'resume', version: '0' });
    expect(r.location).toMatch(/note=stale$/);
    expect(await live()).toMatchObject({ status: 'paused' });
    // a studio publish since the page was drawn makes the page's version old too
    const version = String((await publishedBrand(db(), BRAND))!.version);
    const newest = (await brandDraft(db(), BRAND))!;
    await saveBrandDraft(db(), {
      id: BRAND,
      document: { ...newest.document, name: 'iPaydayLoans!' },
      expectedVersion: newest.version,
      author: 'x@example.com',
    });
    await publishBrand(db(), { id: BRAND, version: newest.version + 1, author: 'x@example.com' });
    expect((await post(admin, { op: 'resume', version })).location).toMatch(/note=stale$/);
    expect(await live()).toMatchObject({ status: 'paused' });
  });

  it('resumes, then stops with a winner that every visitor then gets; an action that no longer applies or an unknown winner changes nothing', async () => {
    const current = async () => String((await publishedBrand(db(), BRAND))!.version);
    expect((await post(admin, { op: 'resume', version: await current() })).location).toMatch(/note=resumed$/);
    expect(await live()).toMatchObject({ status: 'running' });
    expect((await post(admin, { op: 'resume', version: await current() })).location).toMatch(/note=state$/);
    expect((await post(admin, { op: 'stop', winner: 'nobody', version: await current() })).location).toMatch(/note=winner$/);
    expect(await live()).toMatchObject({ status: 'running' });
    const stop = await post(admin, { op: 'stop', winner: 'cash-before-payday', version: await current() });
    expect(stop.location).toMatch(/note=stopped$/);
    expect(await live()).toMatchObject({ status: 'stopped', winner: 'cash-before-payday' });
    const audited = await db().selectFrom('console_audit').select(['action', 'detail']).where('action', '=', 'experiment_stopped').execute();
    expect(JSON.parse(audited[0]!.detail)).toMatchObject({ experiment: EXPERIMENT, winner: 'cash-before-payday' });
  });

  it('refuses with 403 an analyst, an editor of another brand, a post without the token and one from another site, changing nothing', async () => {
    const before = (await publishedBrand(db(), BRAND))!.version;
    const fields = { op: 'pause', version: String(before) };
    expect(await post(analyst, fields)).toMatchObject({ status: 403 });
    expect(await post(otherEditor, fields)).toMatchObject({ status: 403, error: expect.stringMatching(/may not change the brand "ipaydayloans"/) });
    expect(await post({ ...admin, csrf: 'wrong' }, fields)).toMatchObject({ status: 403 });
    expect(await post(admin, fields, { 'sec-fetch-site': 'cross-site' })).toMatchObject({ status: 403 });
    expect((await publishedBrand(db(), BRAND))!.version).toBe(before);
  });

  it('an action the page does not offer, or one over the rate limit, comes back to the page saying why; an API client asking for JSON gets the 4xx', async () => {
    const before = (await publishedBrand(db(), BRAND))!.version;
    const json = { accept: 'application/json' };
    expect(await post(admin, { op: 'explode', version: String(before) })).toEqual({
      status: 303,
      location: `/experiments/${EXPERIMENT}?brand=${BRAND}&note=op`,
    });
    expect(await post(admin, { op: 'explode', version: String(before) }, json)).toMatchObject({ status: 400, error: 'op must be pause, resume or stop' });
    // the studio's allowance of this address used up (by its edits, say)
    const ip = _kind === 'SQLite' ? '198.51.100.41' : '198.51.100.42';
    await rateLimiter(STUDIO_RATE).hit(`studio:${ip}`, undefined, STUDIO_RATE.limit);
    expect(await post(admin, { op: 'pause', version: String(before) }, {}, ip)).toEqual({
      status: 303,
      location: `/experiments/${EXPERIMENT}?brand=${BRAND}&note=limited`,
    });
    expect(await post(admin, { op: 'pause', version: String(before) }, json, ip)).toMatchObject({
      status: 429,
      error: expect.stringMatching(/^Too many studio changes/),
    });
    expect((await publishedBrand(db(), BRAND))!.version).toBe(before);
  });
});
