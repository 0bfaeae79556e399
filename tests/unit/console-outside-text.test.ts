/**
 * Text from visitors, borrowers and buyers as the console's pages show it. Every character drawn
 * as nothing (a zero-width space, joiner or word joiner, a byte-order mark, a tag character) shows
 * as its escape, as a right-to-left override already did, so two values that look alike read
 * apart. And a right-to-left value inside a joined fact keeps to its own run: the separator and
 * the number written after it stay after it, as Chromium lays the page out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import LeadPage from '../../pages/_console/leads/[id]';
import LeadsPage from '../../pages/_console/leads/index';
import BuyersPage from '../../pages/_console/buyers';
import { ConsoleLayout } from '../../blocks/console/ConsoleLayout';
import { visibleText } from '../../engine/browser/safeText';
import { leadDetail, listLeadsPage } from '../../engine/console/leadQueries';
import { leadListQuery } from '../../engine/console/leadFilter';
import { migrateStore, openStore, type Store } from '../../engine/store/db';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium';
import { leadRow } from '../support/leadRow';

describe('visibleText: what is drawn as nothing shows as its escape', () => {
  it.each([
    ['zero-width space', 'ana\u200b@example.org', 'ana\\u200b@example.org'],
    ['zero-width non-joiner', 'spr\u200cing', 'spr\\u200cing'],
    ['zero-width joiner', 'An\u200da', 'An\\u200da'],
    ['word joiner', 'spring\u2060', 'spring\\u2060'],
    ['byte-order mark', '\ufeffspring', '\\ufeffspring'],
    ['soft hyphen', 'spr\u00ading', 'spr\\xading'],
    ['Arabic letter mark', 'a\u061cb', 'a\\u061cb'],
    ['invisible times', 'a\u2062b', 'a\\u2062b'],
    ['Mongolian vowel separator', 'a\u180eb', 'a\\u180eb'],
    ['tag characters', 'x\u{e0041}\u{e007f}', 'x\\u{e0041}\\u{e007f}'],
    ['line separator', 'a\u2028b', 'a\\u2028b'],
    ['variation selector', 'a\ufe0fb', 'a\\ufe0fb'],
    ['Hangul filler', '\u3164', '\\u3164'],
    ['braille blank', '\u2800', '\\u2800'],
    ['half a surrogate pair', 'a\ud800b', 'a\\ud800b'],
    ['right-to-left override, as before', 'abc\u202etxt.exe', 'abc\\u202etxt.exe'],
    ['escape, as before', '\u001b[2J', '\\x1b[2J'],
    ['letters of any script, left alone', 'García Ångström سارة 李 😀', 'García Ångström سارة 李 😀'],
  ])('%s', (_, text, shown) => expect(visibleText(text)).toBe(shown));
});

const dir = mkdtempSync(join(tmpdir(), 'loansites-outside-text-'));
let db: Store;
const admin = { email: 'ops\u200b@example.com', role: 'admin' as const, csrf: 'c', may: [] };
beforeAll(async () => {
  db = openStore({ url: '', file: join(dir, 'o.sqlite') });
  await migrateStore(db);
  await db
    .insertInto('leads')
    .values([
      // what the lead API takes: an email and a source with a zero-width space, a name with a joiner
      { id: 'ld_zero_width', ...leadRow({ first_name: 'An\u200da', email: 'ana\u200b@example.org', source: 'spring\u2060', source2: '\ufeffad-7' }) },
      // a right-to-left source with a sub-id of digits: read as one run, "12 / مصدر"
      { id: 'ld_rtl_source', ...leadRow({ first_name: 'سارة', last_name: 'Haddad', source: 'مصدر', source2: '12' }) },
    ])
    .execute();
});
afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

async function leadPageHtml(id: string): Promise<string> {
  const detail = (await leadDetail(db, 'admin', id, false))!;
  return renderToStaticMarkup(createElement(LeadPage, { viewer: admin, id, detail, canReveal: false, canTrace: false, trace: 'closed' }));
}

async function leadsPageHtml(): Promise<string> {
  const query = leadListQuery({}, new Set(['ipaydayloans']), 'admin');
  const page = await listLeadsPage(db, 'admin', query);
  return renderToStaticMarkup(createElement(LeadsPage, { viewer: admin, rows: page.rows, next: '', prev: '', form: query.form, problems: [], brands: [] }));
}

/** The page's text as a reader gets it: no tags, entities decoded. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

describe('zero-width and other invisible characters on console pages', () => {
  it("a lead's email, source and name show their invisible characters as escapes", async () => {
    const text = textOf(await leadPageHtml('ld_zero_width'));
    expect(text).toContain('ana\\u200b@example.org');
    expect(text).toContain('spring\\u2060');
    expect(text).toContain('\\ufeffad-7');
    expect(text).toContain('An\\u200da');
    expect(text).toContain('ops\\u200b@example.com');
    expect(text).not.toMatch(/\p{Cf}/u);
  });

  it("a buyer's name shows them on the buyers page and in its own page's title", () => {
    const name = 'Acme\u200b Lending';
    const list = renderToStaticMarkup(
      createElement(BuyersPage, {
        viewer: admin,
        from: '2025-03-01',
        to: '2025-03-07',
        zone: 'UTC',
        problem: '',
        rows: [],
        buyers: [{ id: 'acme', name, paused: false }],
        currency: 'USD',
        currencies: [],
      }),
    );
    expect(textOf(list)).toContain('Acme\\u200b Lending');
    // the buyer's page is titled as buyers/[id].tsx titles it: its name, then its id
    const own = renderToStaticMarkup(createElement(ConsoleLayout, { title: `${name} (acme)`, viewer: admin }));
    expect(textOf(own)).toContain('Acme\\u200b Lending (acme)');
    for (const html of [list, own]) expect(textOf(html)).not.toMatch(/\p{Cf}/u);
  });

  it('the leads list shows them as escapes too', async () => {
    const text = textOf(await leadsPageHtml());
    expect(text).toContain('ana\\u200b@example.org');
    expect(text).toContain('An\\u200da');
    expect(text).not.toMatch(/\p{Cf}/u);
  });
});

describe('a right-to-left value inside a joined fact, laid out by Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The left edge of each of `parts` where it first occurs in the text of `selector`'s element, left to right as drawn. */
  async function drawnOrder(html: string, selector: string, parts: string[]): Promise<string[]> {
    const page = await browser.newPage();
    try {
      await page.setContent(html);
      const lefts = await page.locator(selector).evaluate((el, wanted) => {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        const nodes: Text[] = [];
        while (walker.nextNode()) nodes.push(walker.currentNode as Text);
        const all = nodes.map((n) => n.data).join('');
        return wanted.map((part) => {
          let at = all.indexOf(part);
          const node = nodes.find((n) => (at < n.data.length ? true : ((at -= n.data.length), false)))!;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + part.length);
          return range.getBoundingClientRect().left;
        });
      }, parts);
      return parts
        .map((p, i) => [p, lefts[i]!] as const)
        .sort((a, b) => a[1] - b[1])
        .map(([p]) => p);
    } finally {
      await page.close();
    }
  }

  it('on a lead without a visit, "مصدر / 12": the sub-id stays after the separator, after the source', async () => {
    const html = await leadPageHtml('ld_rtl_source');
    expect(await drawnOrder(html, 'section[aria-label="Visit"] div:nth-child(2) dd', ['مصدر', '/', '12'])).toEqual(['مصدر', '/', '12']);
  });

  it('the name keeps its parts apart: each is isolated', async () => {
    expect(await leadPageHtml('ld_rtl_source')).toContain('<dd class="break-all"><bdi>سارة</bdi> <bdi>Haddad</bdi></dd>');
    expect(await leadsPageHtml()).toContain('<td class="px-2 py-1 "><bdi>سارة</bdi> <bdi>Haddad</bdi></td>');
  });
});
