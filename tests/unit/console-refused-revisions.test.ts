/**
 * A brand's published revision that stopped building after a deploy (a shared layout it names was
 * removed, say) is left out of what is served — its file applies, or a brand made in the studio is
 * not served at all. The console's overview and brand pages (the brands list, the studio's list and the
 * brand's studio page), rendered from getServerSideProps over a real SQLite store, say so: which
 * version, what applies instead, its problems (brand text escaped) and what to do; the studio
 * opens that version with its problems, and a fixed version published from it is served again.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GetServerSidePropsContext } from 'next';
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Brand } from '../../schemas/brand.types';
import type { Store } from '../../engine/store/db';
import { getCatalog, setBrandRevisionSource, type BrandRevisionSource } from '../../engine/site/catalog';
import { brandFile, publishBrand, publishedBrands, saveBrandDraft } from '../../engine/store/brandRevisions';
import { studioRoute } from '../../engine/console/studioApi';
import { hashPassword } from '../../engine/console/passwords';
import { addUser } from '../../engine/store/console';
import { analystCookie, consoleSignIn } from '../support/consoleForm';
import { studioRequest } from '../support/studioRequest';

const dir = mkdtempSync(join(tmpdir(), 'console-refused-revisions-'));
let db: Store;
let analyst = '';
let editor: { cookie: string; csrf: string };

const original = JSON.parse(readFileSync('brands/ipaydayloans.json', 'utf8')) as Brand;
/** The layout a deploy removed: the revision published before it still names it. */
const REMOVED = 'retired-home';

beforeAll(async () => {
  Object.assign(process.env, { LOANSITES_DB_FILE: join(dir, 'console.sqlite'), DATABASE_URL: '' });
  const { getStore } = await import('../../engine/store/db');
  db = await getStore();
  analyst = await analystCookie(db);
  await addUser(db, { email: 'editor@example.com', role: 'editor', passwordHash: await hashPassword('a long passphrase 1', { N: 2 ** 12, r: 8, p: 1 }) });
  editor = (await consoleSignIn(db, 'editor@example.com', 'a long passphrase 1'))!;
}, 60_000);

afterEach(() => setBrandRevisionSource(undefined));

afterAll(async () => {
  const { closeStore } = await import('../../engine/store/db');
  await closeStore();
  rmSync(dir, { recursive: true, force: true });
});

/** What every instance does when told of a publication: takes the store's newest published revisions as the set it serves. */
async function serveWhatIsPublished() {
  const live = new Map<string, BrandRevisionSource>(
    [...(await publishedBrands(db))].map(([id, r]) => [id, { key: id, version: r.version, document: r.document, savedAt: r.savedAt }]),
  );
  setBrandRevisionSource(() => live);
}

/** A revision saved and published while its layout still existed (the studio's Publish checked it then). */
async function publishedBeforeTheDeploy(id: string, document: Brand, hasFile: boolean) {
  const draft = await saveBrandDraft(db, { id, document, expectedVersion: 0, author: 'editor@example.com', file: hasFile ? brandFile(id) : null });
  await publishBrand(db, { id, version: draft.version, author: 'editor@example.com' });
  return draft.version;
}

type Page = { default: FunctionComponent<Record<string, unknown>>; getServerSideProps: (ctx: GetServerSidePropsContext) => Promise<unknown> };

/** A console page as Next renders it for this cookie: its props, and its HTML. */
async function render(load: () => Promise<unknown>, cookie: string, params: Record<string, string> = {}) {
  const mod = (await load()) as Page;
  const ctx = {
    req: { headers: { host: 'console.localhost:3000', cookie }, socket: { remoteAddress: '198.51.100.9' } },
    res: { setHeader: () => undefined, statusCode: 200 },
    query: params,
    params,
  } as unknown as GetServerSidePropsContext;
  const { props } = (await mod.getServerSideProps(ctx)) as { props: Record<string, unknown> };
  return { props, html: renderToStaticMarkup(createElement(mod.default, props)) };
}
const overview = (cookie = analyst) => render(() => import('../../pages/_console/index'), cookie);
/** The studio's JSON API as the editor's page calls it; a publication is told to the served set as every instance hears of it. */
const call = (method: string, path: string, body?: unknown) =>
  studioRoute(db, studioRequest(method, path, editor, body), path.split('/'), { announce: serveWhatIsPublished }) as Promise<{
    status: number;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers' bodies are read as JSON
    body: Record<string, any>;
  }>;
const brandsPage = (cookie = analyst) => render(() => import('../../pages/_console/brands'), cookie);
const studioList = (cookie = analyst) => render(() => import('../../pages/_console/studio/index'), cookie);
const studioPage = (brandId: string, cookie = editor.cookie) => render(() => import('../../pages/_console/studio/[brandId]/index'), cookie, { brandId });

/** The page's words, tags gone (entities left as they are, so escaped brand text stays visible as escaped). */
const words = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
/** The alert's HTML, or undefined when the page has none. */
const alertOf = (html: string) => /<section[^>]*data-testid="refused-revisions"[^>]*>(.*?)<\/section>/s.exec(html)?.[1];
/** The studio list's row of a brand: its cells' words. */
const rowOf = (html: string, id: string) =>
  [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)]
    .map((m) => [...m[1]!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/gs)].map((c) => words(c[1]!).trim()))
    .find((cells) => cells.at(-1) === `Open ${id}`);

describe('a published revision that does not build since a deploy', () => {
  it('is named, with what applies instead, its problems and what to do, on the overview, the brands list, the studio list and its studio page', async () => {
    const doc = structuredClone(original);
    doc.name = 'iPayday <i>Revised</i>';
    (doc.routes[0] as { layout: string }).layout = REMOVED;
    const version = await publishedBeforeTheDeploy('ipaydayloans', doc, true);
    await serveWhatIsPublished();
    // what visitors get: the file, not the revision
    expect(getCatalog().brands.get('ipaydayloans')?.brand.name).toBe(original.name);

    for (const { html } of [await overview(), await brandsPage(), await studioList()]) {
      const alert = alertOf(html);
      expect(alert, 'the alert').toBeDefined();
      const text = words(alert!);
      expect(text).toContain('A published version is not applied');
      expect(text).toContain(`(ipaydayloans): the published version ${version} is not applied since the deploy`);
      expect(text).toContain('Its file in brands/, as this deploy shipped it, applies instead.');
      expect(text).toContain(`no layout named "${REMOVED}"`.replace(/"/g, '&quot;'));
      expect(text).toContain('(at /routes/0/layout )');
      expect(text).toContain('open it in the studio, fix these problems, then publish');
      expect(alert).toContain('href="/studio/ipaydayloans"');
      // the revision's name is brand text: shown, never taken as markup
      expect(alert).toContain('iPayday &lt;i&gt;Revised&lt;/i&gt;');
      expect(alert).not.toContain('<i>');
    }
    expect(rowOf((await studioList()).html, 'ipaydayloans')?.[1]).toBe(`the file (version ${version} does not build)`);

    // the editor opens that version, its problem at its field, and says to fix it there
    const page = await studioPage('ipaydayloans');
    const editorProps = page.props.editor as { document: Brand; version: number; problems: { pointer: string; message: string }[] };
    expect((editorProps.document.routes[0] as { layout: string }).layout).toBe(REMOVED);
    expect(editorProps.problems).toContainEqual(
      expect.objectContaining({ pointer: '/routes/0/layout', message: expect.stringContaining(`no layout named "${REMOVED}"`) }),
    );
    expect(words(alertOf(page.html)!)).toContain('fix these problems in the editor below, then publish');
    // a role that may only look is told who can fix it
    expect(words(alertOf((await studioPage('ipaydayloans', analyst)).html)!)).toContain('an admin or an editor of this brand fixes these problems here');

    // the studio's API says the same to a script
    const opened = await call('GET', 'brands/ipaydayloans');
    expect(opened.body.notApplied).toEqual({
      version,
      instead: 'file',
      problems: [{ message: expect.stringContaining(`no layout named "${REMOVED}"`), where: '/routes/0/layout' }],
      moreProblems: 0,
    });
    const listed = (await call('GET', 'brands')).body.brands as { id: string; notApplied: unknown }[];
    expect(listed.find((b) => b.id === 'ipaydayloans')?.notApplied).toMatchObject({ version, instead: 'file' });
    expect(listed.find((b) => b.id === 'cocoloan')?.notApplied).toBeNull();

    // fixed from that version and published: served again, and no page names it any more
    const fixed = structuredClone(editorProps.document);
    (fixed.routes[0] as { layout: string }).layout = (original.routes[0] as { layout: string }).layout;
    const saved = await call('PUT', 'brands/ipaydayloans/draft', { document: fixed, expectedVersion: editorProps.version });
    expect(saved.status).toBe(200);
    expect((await call('POST', 'brands/ipaydayloans/publish', { version: saved.body.version })).status).toBe(200);
    expect(getCatalog().brands.get('ipaydayloans')?.brand.name).toBe('iPayday <i>Revised</i>');
    for (const { html } of [await overview(), await brandsPage(), await studioList(), await studioPage('ipaydayloans')]) expect(alertOf(html)).toBeUndefined();
    expect((await call('GET', 'brands/ipaydayloans')).body.notApplied).toBeNull();
    expect(rowOf((await studioList()).html, 'ipaydayloans')?.[1]).toBe(`version ${saved.body.version}`);
  });

  it('of a brand made in the studio: says the brand is not served', async () => {
    const doc = { ...structuredClone(original), id: 'studiomade', name: 'Studio Made Loans', hosts: ['studiomade.example'] } as Brand;
    delete (doc as { blogHost?: string }).blogHost;
    (doc.routes[0] as { layout: string }).layout = REMOVED;
    const version = await publishedBeforeTheDeploy('studiomade', doc, false);
    await serveWhatIsPublished();
    expect(getCatalog().hostMap.get('studiomade.example')).toBeUndefined();

    for (const { html } of [await overview(), await brandsPage(), await studioList()]) {
      const text = words(alertOf(html) ?? '');
      expect(text).toContain(`Studio Made Loans (studiomade): the published version ${version} is not applied since the deploy`);
      expect(text).toContain('This brand is not served');
    }
    expect(rowOf((await studioList()).html, 'studiomade')?.[1]).toBe(`nothing: not served (version ${version} does not build)`);
    const page = await studioPage('studiomade');
    expect((page.props.editor as { document: Brand }).document.name).toBe('Studio Made Loans');
    expect(words(alertOf(page.html)!)).toContain('This brand is not served');
  });
});
