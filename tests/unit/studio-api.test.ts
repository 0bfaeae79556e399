/**
 * The brand studio's JSON API (engine/console/studioApi.ts) on SQLite and a real PostgreSQL, as
 * the studio's pages call it: an editor makes a brand with the wizard, saves drafts, is refused a
 * publish while a link goes nowhere (each problem with its field's pointer), publishes once it is
 * fixed, restores an older version; a second editor over an old version gets a 409 with the other
 * change; analysts read but may not change anything; an editor limited to one brand may not touch
 * another; a write without the CSRF token, from another site, too large or malformed is refused.
 */
import { describe, expect, it } from 'vitest';
import { studioRoute } from '../../engine/console/studioApi';
import { brandLogo, publishDueBrands } from '../../engine/store/brandRevisions';
import { publishRefusal } from '../../engine/site/brandLive';
import { hashPassword } from '../../engine/console/passwords';
import { addUser } from '../../engine/store/console';
import type { Role } from '../../engine/console/roles';
import type { Brand } from '../../schemas/brand.types';
import { bothStores, migratedStore } from '../support/bothStores';
import { consoleSignIn } from '../support/consoleForm';
import { studioRequest } from '../support/studioRequest';

const stores = bothStores('loansites-studio-api-');
const cheap = { N: 2 ** 12, r: 8, p: 1 };

type Who = { cookie: string; csrf: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers' bodies are read as JSON
type Answer = { status: number; body: Record<string, any> };
const request = studioRequest;

const ANSWERS = {
  id: 'studiotest',
  name: 'Studio Test Loans',
  kind: 'general',
  hosts: 'studiotest.example',
  primaryColor: '#0b5394',
  phone: '+1-800-555-0100',
  email: 'help@studiotest.example',
  address: '1 Main St, Austin, TX 78701',
};

describe.each(stores.kinds('studio-api.sqlite'))('%s', (_kind, options) => {
  const db = migratedStore(options);
  const announced: string[] = [];
  const call = async (method: string, path: string, who: Who, body?: unknown, headers?: Record<string, string>) => {
    try {
      const r = await studioRoute(db(), request(method, path, who, body, headers), path.split('/').filter(Boolean), {
        announce: async () => void announced.push(path),
      });
      return r as Answer;
    } catch (err) {
      const e = err as { status?: number; message: string; problems?: string[] };
      if (!e.status) throw err;
      return { status: e.status, body: { error: e.message, ...(e.problems?.length ? { problems: e.problems } : {}) } } as Answer;
    }
  };
  const user = async (email: string, role: Role, brands?: string[]): Promise<Who> => {
    await addUser(db(), { email, role, passwordHash: await hashPassword('a long passphrase 1', cheap), brands });
    return (await consoleSignIn(db(), email, 'a long passphrase 1'))!;
  };
  let editor: Who, second: Who, analyst: Who, limited: Who;

  it('an editor makes a brand with the wizard; a wrong answer is named by its question', async () => {
    editor = await user('editor@example.com', 'editor');
    second = await user('second@example.com', 'editor');
    analyst = await user('analyst@example.com', 'analyst');
    limited = await user('limited@example.com', 'editor', ['cocoloan']);
    const wrong = await call('POST', 'brands', editor, { answers: { ...ANSWERS, primaryColor: '#ffd54f', name: '' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.problems).toEqual([
      { question: 'name', message: 'this needs an answer (it has no default)' },
      { question: 'primaryColor', message: expect.stringMatching(/^white text on #ffd54f has a contrast of 1\.4:1/) },
      { question: 'progressColor', message: expect.stringContaining('leave it blank once "Primary colour" is accepted') },
    ]);
    const taken = await call('POST', 'brands', editor, { answers: { ...ANSWERS, id: 'other-one', hosts: 'ipaydayloans.com' } });
    expect(taken).toMatchObject({
      status: 422,
      body: { problems: [{ question: 'hosts', message: expect.stringMatching(/also claimed by brands\/ipaydayloans\.json/) }] },
    });
    // an answer to no question (the legal entity goes into the draft after it is made) is refused by name, not dropped unseen
    const unknown = await call('POST', 'brands', editor, { answers: { ...ANSWERS, legalName: 'Studio Test LLC' } });
    expect(unknown).toEqual({
      status: 400,
      body: { error: 'The body is not valid', problems: [expect.stringMatching(/^\/answers\/legalName: unknown property "legalName"/)] },
    });
    expect(await call('POST', 'check', editor, { question: 'id', value: 'x1', answers: { admin: 'yes' } })).toMatchObject({ status: 400 });
    const made = await call('POST', 'brands', editor, { answers: ANSWERS });
    expect(made).toMatchObject({ status: 201, body: { id: 'studiotest', version: 1 } });
    const again = await call('POST', 'brands', second, { answers: ANSWERS });
    expect(again).toMatchObject({ status: 422, body: { problems: [{ question: 'id' }] } });
    expect(await call('POST', 'check', editor, { question: 'id', value: 'studiotest' })).toMatchObject({
      body: { ok: false, message: expect.stringMatching(/already exists/) },
    });
    expect(await call('POST', 'check', editor, { question: 'primaryColor', value: '#ffd54f' })).toMatchObject({
      body: { ok: false, message: expect.stringMatching(/contrast/) },
    });
    expect(await call('POST', 'check', editor, { question: 'primaryColor', value: '#0b5394' })).toEqual({ status: 200, body: { ok: true } });
  });

  it("the wizard's brand shows a logo the site serves (its name on the brand colour), not a path to no file", async () => {
    const made = (await call('GET', 'brands/studiotest', editor)).body.document as Brand;
    const logo = made.organization.logo;
    expect(logo).toMatch(/^\/api\/brand-logo\/[0-9a-f]{32}\.svg$/);
    const stored = await brandLogo(db(), logo.split('/').pop()!);
    expect(stored?.type).toBe('image/svg+xml');
    expect(stored?.bytes.toString('utf8')).toContain('Studio Test Loans');
  });

  it('a host is refused as it is answered exactly when making the brand would refuse it, with what to write instead', async () => {
    const check = async (value: string) => (await call('POST', 'check', editor, { question: 'hosts', value, answers: { id: 'hostcheck' } })).body;
    const made = async (hosts: string) => (await call('POST', 'brands', editor, { answers: { ...ANSWERS, id: 'hostcheck', hosts } })).body;
    // another brand's blog host: refused at the answer, as creating the brand refuses it
    expect(await check('blog.ipaydayloans.com')).toEqual({
      ok: false,
      message: 'host "blog.ipaydayloans.com" already belongs to the brand ipaydayloans; a host can belong to one brand only',
    });
    expect(await made('blog.ipaydayloans.com')).toMatchObject({ problems: [{ question: 'hosts', message: expect.stringMatching(/ipaydayloans/) }] });
    const refusals: Record<string, string> = {
      'Acme-Probe.COM': '"Acme-Probe.COM": write it in lowercase, acme-probe.com',
      'acmeprobe.com:8443': '"acmeprobe.com:8443": leave out the port (":8443"); a brand is found by its host name alone',
      'acmeprobe.com.': '"acmeprobe.com.": leave out the final dot (acmeprobe.com)',
      'bücher-loans.com': '"bücher-loans.com": write an international name in its xn-- form, xn--bcher-loans-thb.com, as browsers send it',
      'https://acmeprobe.com/': '"https://acmeprobe.com/": give the host name alone, with no https:// and no path',
      'acmeprobe.com,': 'a host is missing between two commas; remove the extra comma',
    };
    for (const [hosts, message] of Object.entries(refusals)) {
      expect(await check(hosts), hosts).toEqual({ ok: false, message });
      expect(await made(hosts), hosts).toMatchObject({ problems: [{ question: 'hosts', message }] });
    }
    // longer than the 253 characters a host name may have: the brand's check refuses it, so the answer's does
    const long = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`;
    expect(await check(long)).toEqual({ ok: false, message: expect.stringMatching(/is 259 characters long; a host name has at most 253$/) });
    expect(await made(long)).toMatchObject({ problems: [{ question: 'hosts', message: expect.stringMatching(/at most 253/) }] });
    expect(await check('xn--bcher-loans-thb.com')).toEqual({ ok: true });
  });

  it('an id the studio cannot make is refused at the id as it is answered, and again at the id when the brand is made', async () => {
    const refusals = {
      // a host name's label ends with a letter or digit: trail-.localhost, trail-.com are no hosts
      'trail-': /starting and ending with a letter or digit/,
      new: /"new" is the studio’s own page/,
      // its local host would be the console's own
      console: /local host "console\.localhost" is the console’s/,
    };
    for (const [id, words] of Object.entries(refusals)) {
      expect(await call('POST', 'check', editor, { question: 'id', value: id }), id).toEqual({
        status: 200,
        body: { ok: false, message: expect.stringMatching(words) },
      });
      const made = await call('POST', 'brands', editor, { answers: { ...ANSWERS, id, hosts: '' } });
      expect(made, id).toMatchObject({ status: 422, body: { error: 'some answers need another look' } });
      expect(
        made.body.problems.find((p: { question: string }) => p.question === 'id'),
        id,
      ).toEqual({ question: 'id', message: expect.stringMatching(words) });
      expect(made.body.problems.find((p: { question: string }) => p.question === 'hosts')?.message ?? '', id).not.toMatch(/localhost/);
    }
  });

  it('publishing is refused while a link goes nowhere, with the field’s pointer and the validator’s words; fixed, it publishes', async () => {
    const opened = await call('GET', 'brands/studiotest', editor);
    expect(opened).toMatchObject({ status: 200, body: { id: 'studiotest', version: 1, publishedVersion: 0, canEdit: true, problems: [] } });
    expect((opened.body.layouts as { name: string }[]).map((l) => l.name)).toContain('starter-home');
    const doc = structuredClone(opened.body.document) as unknown as Brand;
    doc.nav.items.push({ label: 'Nowhere', href: '/no-such-page' });
    const saved = await call('PUT', 'brands/studiotest/draft', editor, { document: doc, expectedVersion: 1 });
    expect(saved.status).toBe(200);
    expect(saved.body.version).toBe(2);
    const pointer = `/nav/items/${doc.nav.items.length - 1}/href`;
    expect(saved.body.problems).toEqual([
      expect.objectContaining({ pointer, text: expect.stringMatching(new RegExp(`^brands/studiotest\\.json:\\d+:\\d+ ${pointer}: `)) }),
    ]);
    const refused = await call('POST', 'brands/studiotest/publish', editor, { version: 2 });
    expect(refused).toMatchObject({ status: 422, body: { problems: [{ pointer }] } });
    doc.nav.items.pop();
    doc.footer.about = 'First published words.';
    expect((await call('PUT', 'brands/studiotest/draft', editor, { document: doc, expectedVersion: 2 })).body).toMatchObject({ version: 3, problems: [] });
    expect(await call('POST', 'brands/studiotest/publish', editor, { version: 3 })).toEqual({ status: 200, body: { publishedVersion: 3 } });
    expect(announced).toContain('brands/studiotest/publish');
    const list = await call('GET', 'brands', analyst);
    const row = (list.body.brands as { id: string }[]).find((b) => b.id === 'studiotest');
    expect(row).toMatchObject({
      name: 'Studio Test Loans',
      hosts: ['studiotest.example'],
      published: { version: 3, author: 'editor@example.com' },
      draft: null,
      fileChanged: false,
      problems: 0,
      canEdit: false,
    });
    // a file brand is listed with nothing published
    expect((list.body.brands as { id: string }[]).find((b) => b.id === 'ipaydayloans')).toMatchObject({ published: null, draft: null, problems: 0 });
  });

  it('a second editor saving over an old version gets a 409 with the other change; nothing is lost', async () => {
    const doc = (await call('GET', 'brands/studiotest', second)).body.document as unknown as Brand;
    const mine = { ...doc, footer: { ...doc.footer, about: 'Editor one’s words.' } };
    const theirs = { ...doc, footer: { ...doc.footer, about: 'Editor two’s words.' } };
    expect((await call('PUT', 'brands/studiotest/draft', editor, { document: mine, expectedVersion: 3 })).status).toBe(200);
    const conflict = await call('PUT', 'brands/studiotest/draft', second, { document: theirs, expectedVersion: 3 });
    expect(conflict).toMatchObject({
      status: 409,
      body: {
        error: expect.stringMatching(/editor@example\.com changed this/),
        current: { version: 4, author: 'editor@example.com', document: { footer: { about: 'Editor one’s words.' } } },
      },
    });
    expect((await call('PUT', 'brands/studiotest/draft', second, { document: theirs, expectedVersion: 4 })).body).toMatchObject({ version: 5 });
  });

  it('restores an earlier version in one action, and lists the history with who published what', async () => {
    expect(await call('POST', 'brands/studiotest/publish', second, { version: 5 })).toMatchObject({ status: 200, body: { publishedVersion: 5 } });
    const restored = await call('POST', 'brands/studiotest/restore', editor, { version: 3 });
    expect(restored).toMatchObject({ status: 200, body: { publishedVersion: 6 } });
    expect((await call('GET', 'brands/studiotest/revisions/6', analyst)).body).toMatchObject({ document: { footer: { about: 'First published words.' } } });
    const history = (await call('GET', 'brands/studiotest/history', analyst)).body.revisions as { version: number; published: boolean; publishedBy?: string }[];
    expect(history.filter((h) => h.published).map((h) => [h.version, h.publishedBy])).toEqual([
      [6, 'editor@example.com'],
      [5, 'second@example.com'],
      [3, 'editor@example.com'],
    ]);
    // version 0 is the file, for brands that have one
    expect((await call('GET', 'brands/ipaydayloans/revisions/0', analyst)).body).toMatchObject({ document: { id: 'ipaydayloans' } });
  });

  it('schedules a publication for later instead of publishing now', async () => {
    const doc = (await call('GET', 'brands/studiotest', editor)).body.document;
    const saved = await call('PUT', 'brands/studiotest/draft', editor, { document: doc, expectedVersion: 6 });
    const at = new Date(Date.now() + 3600_000).toISOString();
    expect(await call('POST', 'brands/studiotest/publish', editor, { version: saved.body.version, at })).toEqual({
      status: 200,
      body: { publishedVersion: 6, scheduledAt: at },
    });
    expect((await call('GET', 'brands/studiotest', editor)).body).toMatchObject({ publishedVersion: 6, scheduled: { version: 7, at } });
    expect(await call('DELETE', 'brands/studiotest/publish', editor)).toMatchObject({ body: { cancelled: true } });
    // the history page offers the newest version first: when that is the live one, the refusal says what to do
    expect(await call('POST', 'brands/studiotest/publish', editor, { version: 6, at })).toEqual({
      status: 409,
      body: expect.objectContaining({
        error: 'version 6 of "studiotest" is already published; to publish a change, make it in the editor (it saves a new version) and publish that',
      }),
    });
  });

  it('says when a publication set for later came due and was refused, with the reason, until another is set', async () => {
    const doc = (await call('GET', 'brands/studiotest', editor)).body.document;
    const saved = await call('PUT', 'brands/studiotest/draft', editor, { document: doc, expectedVersion: 7 });
    const at = new Date(Date.now() + 3600_000).toISOString();
    expect(await call('POST', 'brands/studiotest/publish', editor, { version: saved.body.version, at })).toMatchObject({ status: 200 });
    expect((await call('GET', 'brands/studiotest', analyst)).body).toMatchObject({ scheduled: { version: saved.body.version }, scheduleRefused: null });
    // due, and the validator finds a problem with the draft by then (a shared layout it uses changed, say)
    await publishDueBrands(db(), new Date(Date.parse(at) + 1000), () => '/hosts/0: must match format "hostname"');
    expect((await call('GET', 'brands/studiotest', analyst)).body).toMatchObject({
      publishedVersion: 6,
      scheduled: null,
      scheduleRefused: { version: saved.body.version, at, author: 'editor@example.com', reason: '/hosts/0: must match format "hostname"' },
    });
    const later = new Date(Date.now() + 7200_000).toISOString();
    expect(await call('POST', 'brands/studiotest/publish', editor, { version: saved.body.version, at: later })).toMatchObject({ status: 200 });
    expect((await call('GET', 'brands/studiotest', analyst)).body).toMatchObject({ scheduled: { at: later }, scheduleRefused: null });
    expect(await call('DELETE', 'brands/studiotest/publish', editor)).toMatchObject({ body: { cancelled: true } });
  });

  it('analysts read but may not change; an editor limited to one brand may not change another', async () => {
    expect((await call('GET', 'brands/studiotest', analyst)).body).toMatchObject({ canEdit: false });
    for (const [method, path, body] of [
      ['PUT', 'brands/studiotest/draft', { document: {}, expectedVersion: 7 }],
      ['POST', 'brands/studiotest/publish', { version: 7 }],
      ['POST', 'brands/studiotest/restore', { version: 3 }],
      ['POST', 'brands', { answers: ANSWERS }],
    ] as const)
      expect(await call(method, path, analyst, body)).toMatchObject({ status: 403 });
    expect(await call('POST', 'brands/studiotest/publish', limited, { version: 7 })).toMatchObject({
      status: 403,
      body: { error: expect.stringMatching(/may not change the brand "studiotest"/) },
    });
    expect((await call('GET', 'brands/cocoloan', limited)).body).toMatchObject({ canEdit: true });
    expect((await call('GET', 'brands/studiotest', limited)).body).toMatchObject({ canEdit: false });
    // a new brand: told at the id, as it is typed, with what to do, and refused so at Create
    const notTheirs = /may change only the brands an admin gave it, and "limited-new" is not one of them: ask an admin to add "limited-new"/;
    expect(await call('POST', 'check', limited, { question: 'id', value: 'limited-new' })).toMatchObject({
      status: 200,
      body: { ok: false, message: expect.stringMatching(notTheirs) },
    });
    expect(await call('POST', 'brands', limited, { answers: { ...ANSWERS, id: 'limited-new' } })).toMatchObject({
      status: 403,
      body: { error: expect.stringMatching(notTheirs) },
    });
  });

  it('refuses a write without the CSRF token, from another site, too large, not JSON or not matching its schema; a stranger gets 401', async () => {
    const doc = { document: {}, expectedVersion: 7 };
    expect(await call('PUT', 'brands/studiotest/draft', { ...editor, csrf: 'wrong' }, doc)).toMatchObject({ status: 403 });
    expect(await call('PUT', 'brands/studiotest/draft', editor, doc, { 'sec-fetch-site': 'cross-site' })).toMatchObject({ status: 403 });
    expect(await call('PUT', 'brands/studiotest/draft', editor, Buffer.alloc(2 * 1024 * 1024, 32))).toMatchObject({ status: 413 });
    expect(await call('PUT', 'brands/studiotest/draft', editor, doc, { 'content-type': 'text/plain' })).toMatchObject({ status: 415 });
    expect(await call('PUT', 'brands/studiotest/draft', editor, { document: 'x', expectedVersion: -1 })).toMatchObject({ status: 400 });
    expect(await call('GET', 'brands', { cookie: '', csrf: '' })).toMatchObject({ status: 401 });
    expect(await call('GET', 'brands/NOT_AN_ID', editor)).toMatchObject({ status: 404 });
    expect(await call('POST', 'brands/studiotest/history', editor)).toMatchObject({ status: 405 });
  });

  it('a restore clicked twice, or by two editors at once, publishes once; the later ones are told it is published already', async () => {
    const published = async () =>
      ((await call('GET', 'brands/studiotest/history', analyst)).body.revisions as { published: boolean }[]).filter((h) => h.published).length;
    const before = await published();
    const first = await call('POST', 'brands/studiotest/restore', editor, { version: 5 });
    expect(first).toMatchObject({ status: 200 });
    const again = await call('POST', 'brands/studiotest/restore', second, { version: 5 });
    expect(again).toMatchObject({ status: 409, body: { error: expect.stringMatching(/already published/) } });
    const together = await Promise.all([editor, second, editor].map((who) => call('POST', 'brands/studiotest/restore', who, { version: 3 })));
    expect(together.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(await published()).toBe(before + 2);
    expect((await call('GET', 'brands/studiotest', analyst)).body).toMatchObject({ document: { footer: { about: 'First published words.' } } });
  });

  it('refuses what no studio page sends with a reason: a version never saved, a document nested past any brand, a draft of a brand the wizard did not make', async () => {
    const opened = await call('GET', 'brands/studiotest', editor);
    const doc = opened.body.document as Record<string, unknown>;
    const ahead = await call('PUT', 'brands/studiotest/draft', editor, { document: doc, expectedVersion: opened.body.version + 5 });
    expect(ahead).toEqual({ status: 409, body: { error: expect.stringMatching(/^there is no version \d+ to save over \(the newest is \d+\); reload/) } });
    // a version past what the store holds is one never saved too, not a crash
    for (const expectedVersion of [2 ** 31, 2 ** 53, 1e20])
      expect(await call('PUT', 'brands/studiotest/draft', editor, { document: doc, expectedVersion }), String(expectedVersion)).toEqual({
        status: 409,
        body: { error: expect.stringMatching(/^there is no version \d+ to save over \(the newest is \d+\); reload/) },
      });
    for (const version of [2 ** 31, 1e20]) {
      expect(await call('POST', 'brands/studiotest/publish', editor, { version }), String(version)).toMatchObject({ status: 404 });
      expect(await call('POST', 'brands/studiotest/restore', editor, { version }), String(version)).toMatchObject({ status: 404 });
    }
    // a brand with a file and no draft yet: its newest is the file, version 0
    const file = (await call('GET', 'brands/honestloans', editor)).body.document;
    expect(await call('PUT', 'brands/honestloans/draft', editor, { document: file, expectedVersion: 5 })).toMatchObject({
      status: 409,
      body: { error: 'there is no version 5 to save over (the newest is 0); reload, then make your change again' },
    });
    const deep = Buffer.from(`{"document":{"x":${'['.repeat(5000)}${']'.repeat(5000)}},"expectedVersion":${opened.body.version}}`);
    expect(await call('PUT', 'brands/studiotest/draft', editor, deep)).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^The body is not valid: it nests objects and arrays deeper than 64 levels/) },
    });
    for (const id of ['new', 'never-made']) {
      const answer = await call('PUT', `brands/${id}/draft`, editor, { document: { ...doc, id, hosts: [`${id}.example`] }, expectedVersion: 0 });
      expect(answer, id).toMatchObject({ status: 404, body: { error: `No brand "${id}"; a new brand starts in the wizard at /studio/new` } });
    }
    expect((await call('GET', 'brands', analyst)).body.brands.map((b: { id: string }) => b.id)).not.toContain('never-made');
    // nothing of the above was stored
    expect((await call('GET', 'brands/studiotest', editor)).body.version).toBe(opened.body.version);
  });

  it('HEAD reads what GET reads, and never makes a brand', async () => {
    for (const path of ['brands', 'brands/studiotest', 'brands/studiotest/history', 'questions'])
      expect((await call('HEAD', path, analyst)).status, path).toBe(200);
    expect(await call('HEAD', 'brands/studiotest/draft', editor)).toMatchObject({ status: 405 });
  });

  it('stores an uploaded SVG logo sanitised, and serves its address', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10"/></svg>',
    );
    const up = await call('POST', 'brands/studiotest/logo', editor, svg, { 'content-type': 'image/svg+xml' });
    expect(up).toMatchObject({ status: 200, body: { src: expect.stringMatching(/^\/api\/brand-logo\/[0-9a-f]{32}\.svg$/) } });
    const { brandLogo } = await import('../../engine/store/brandRevisions');
    const stored = await brandLogo(db(), String(up.body.src).split('/').pop()!);
    expect(stored?.bytes.toString()).not.toMatch(/alert|onload|script/);
    expect(await call('POST', 'brands/studiotest/logo', analyst, svg, { 'content-type': 'image/svg+xml' })).toMatchObject({ status: 403 });
  });

  it('refuses a logo over 256 KB saying the limit in KB and what to do, not a count of bytes', async () => {
    const big = Buffer.alloc(300 * 1024, 0x20);
    expect(await call('POST', 'brands/studiotest/logo', editor, big, { 'content-type': 'image/png' })).toEqual({
      status: 413,
      body: expect.objectContaining({
        error: 'The logo is larger than 256 KB; save it smaller (a simpler SVG, or a PNG with fewer pixels) and upload it again',
      }),
    });
  });

  it('stores and audits no logo for a brand that does not exist', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>');
    const before = await db().selectFrom('console_audit').select('id').where('action', '=', 'brand_logo_uploaded').execute();
    expect(await call('POST', 'brands/no-such-brand/logo', editor, svg, { 'content-type': 'image/svg+xml' })).toMatchObject({
      status: 404,
      body: { error: 'No brand "no-such-brand"; a new brand starts in the wizard at /studio/new' },
    });
    expect(await db().selectFrom('console_audit').select('id').where('action', '=', 'brand_logo_uploaded').execute()).toHaveLength(before.length);
    const { checkLogo } = await import('../../engine/console/logoUpload');
    const { brandLogo } = await import('../../engine/store/brandRevisions');
    const would = checkLogo(svg, 'image/svg+xml');
    expect(would.ok && (await brandLogo(db(), would.name))).toBeUndefined();
  });

  it('copy holding an invisible right-to-left override is refused at its field, in the wizard and in the editor, and is not published', async () => {
    const rlo = '\u202e';
    const words = /^this text has an invisible right-to-left override character \(U\+202E\), which shows visitors the text after it reordered; delete it/;
    expect(await call('POST', 'check', editor, { question: 'name', value: `Acme${rlo}0010-555-008` })).toEqual({
      status: 200,
      body: { ok: false, message: expect.stringMatching(words) },
    });
    const made = await call('POST', 'brands', editor, { answers: { ...ANSWERS, id: 'bidicheck', hosts: 'bidicheck.example', name: `Acme${rlo}Loans` } });
    expect(made).toMatchObject({ status: 422, body: { problems: [{ question: 'name', message: expect.stringMatching(words) }] } });
    expect(await call('POST', 'brands', editor, { answers: { ...ANSWERS, id: 'bidicheck', hosts: 'bidicheck.example' } })).toMatchObject({ status: 201 });
    const opened = await call('GET', 'brands/bidicheck', editor);
    const doc = structuredClone(opened.body.document) as unknown as Brand;
    doc.footer.about = `Call us: ${rlo}0010-555-008-1+`;
    const saved = await call('PUT', 'brands/bidicheck/draft', editor, { document: doc, expectedVersion: opened.body.version });
    expect(saved.body.problems).toEqual([
      expect.objectContaining({
        pointer: '/footer/about',
        message: expect.stringMatching(words),
        text: expect.stringMatching(/^brands\/bidicheck\.json:\d+:\d+ \/footer\/about: this text has an invisible right-to-left override/),
      }),
    ]);
    expect(await call('POST', 'brands/bidicheck/publish', editor, { version: saved.body.version })).toMatchObject({
      status: 422,
      body: { problems: [{ pointer: '/footer/about' }] },
    });
  });

  it("in a deployment the wizard's placeholder logo is a problem at the logo field, as validate --production says of one in public/logos/", async () => {
    expect(await call('POST', 'brands', editor, { answers: { ...ANSWERS, id: 'logocheck', hosts: 'logocheck.example' } })).toMatchObject({ status: 201 });
    const logoProblem = { pointer: '/organization/logo', message: expect.stringMatching(/ is a placeholder logo; give the brand's real one/) };
    // locally it is fine: a brand being made
    expect((await call('GET', 'brands/logocheck', editor)).body.problems).toEqual([]);
    const before = process.env.LOANSITES_DEPLOYMENT;
    process.env.LOANSITES_DEPLOYMENT = 'production';
    try {
      const opened = await call('GET', 'brands/logocheck', editor);
      expect(opened.body.problems).toContainEqual(expect.objectContaining(logoProblem));
      expect(await call('POST', 'brands/logocheck/publish', editor, { version: opened.body.version })).toMatchObject({
        status: 422,
        body: { problems: expect.arrayContaining([expect.objectContaining(logoProblem)]) },
      });
    } finally {
      if (before === undefined) delete process.env.LOANSITES_DEPLOYMENT;
      else process.env.LOANSITES_DEPLOYMENT = before;
    }
  });

  it('a publication set for later that comes due in a deployment with the placeholder logo is refused, as publishing it now is', async () => {
    // real keys: the placeholder logo is all that stands in the way
    const answers = {
      ...ANSWERS,
      id: 'logolater',
      hosts: 'logolater.example',
      mapKey: 'pk.eyJ1IjoibG9nb2xhdGVyIn0.k3y',
      siteKey: '6LdLogoLaterKey',
      phone: '+1-512-867-5309',
    };
    expect(await call('POST', 'brands', editor, { answers })).toMatchObject({ status: 201 });
    const opened = await call('GET', 'brands/logolater', editor);
    // set for later where the placeholder is fine (a staging instance on the same store, say)
    const at = new Date(Date.now() + 3600_000).toISOString();
    expect(await call('POST', 'brands/logolater/publish', editor, { version: opened.body.version, at })).toMatchObject({ status: 200 });
    const before = process.env.LOANSITES_DEPLOYMENT;
    process.env.LOANSITES_DEPLOYMENT = 'production';
    try {
      // what publishing it now is refused for
      const now = await call('POST', 'brands/logolater/publish', editor, { version: opened.body.version });
      expect(now.status).toBe(422);
      const reasons = now.body.problems.map((p: { text: string }) => p.text);
      expect(reasons).toEqual([expect.stringMatching(/\/organization\/logo: .* is a placeholder logo; give the brand's real one/)]);
      // due on a deployment's instance: the same check as its Publish
      expect(await publishDueBrands(db(), new Date(Date.parse(at) + 1000), (id, doc) => publishRefusal(db(), id, doc))).not.toContain('logolater');
      expect((await call('GET', 'brands/logolater', analyst)).body).toMatchObject({
        publishedVersion: 0,
        scheduled: null,
        scheduleRefused: { version: opened.body.version, reason: reasons[0] },
      });
    } finally {
      if (before === undefined) delete process.env.LOANSITES_DEPLOYMENT;
      else process.env.LOANSITES_DEPLOYMENT = before;
    }
  });

  it('a text left as spaces only is refused at its field, as an empty one is, and is not published', async () => {
    expect(await call('POST', 'brands', editor, { answers: { ...ANSWERS, id: 'blankcheck', hosts: 'blankcheck.example' } })).toMatchObject({ status: 201 });
    const opened = await call('GET', 'brands/blankcheck', editor);
    const doc = structuredClone(opened.body.document) as unknown as Brand;
    doc.organization.legalName = '   ';
    doc.footer.columns[0]!.title = '    ';
    (doc.nav.items[1] as { label: string }).label = '\u00a0\u200b ';
    const saved = await call('PUT', 'brands/blankcheck/draft', editor, { document: doc, expectedVersion: opened.body.version });
    const blank = 'this text is only spaces, which visitors see as nothing; write the text, or remove the entry';
    expect(saved.body.problems.map((p: { pointer: string; message: string }) => [p.pointer, p.message])).toEqual([
      ['/organization/legalName', blank],
      ['/nav/items/1/label', blank],
      ['/footer/columns/0/title', blank],
    ]);
    expect(await call('POST', 'brands/blankcheck/publish', editor, { version: saved.body.version })).toMatchObject({ status: 422 });
  });
});
