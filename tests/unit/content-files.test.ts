/** The repository's own content: loads cleanly, and there is enough of it for every market. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent, queryIndex } from '../../engine/content/embedded';
import { markdownToSafeHtml } from '../../engine/content/markdown';

const index = loadContent(join(process.cwd(), 'content'));
const live = (collection: 'article' | 'answer' | 'hub', market: 'us' | 'ca' | 'au') =>
  queryIndex(index, collection, { filters: { brand: { id: '-', market } }, publicationState: 'LIVE', pagination: { page: 1, pageSize: 100 } }).meta.pagination
    .total;

describe('content/', () => {
  it('every file is valid and every category, tag and author it names exists', () => {
    expect(index.problems).toEqual([]);
  });
  it('has at least 12 articles and 30 answers published, plus drafts for preview', () => {
    const all = (c: 'article' | 'answer') => index.entries.get(c)!;
    expect(all('article').filter((e) => e.attributes.publishedAt).length).toBeGreaterThanOrEqual(12);
    expect(all('answer').filter((e) => e.attributes.publishedAt).length).toBeGreaterThanOrEqual(30);
    expect(all('article').some((e) => e.attributes.publishedAt === null)).toBe(true);
  });
  it.each(['us', 'ca', 'au'] as const)('%s: at least two pages of blog list at 5 a page, and hub entries', (market) => {
    expect(live('article', market)).toBeGreaterThan(5);
    expect(live('hub', market)).toBeGreaterThan(0);
  });
  it('authors have bios, and every body renders to safe HTML', async () => {
    for (const a of index.entries.get('author')!) expect(a.attributes.extras?.body?.length, a.attributes.slug).toBeGreaterThan(200);
    for (const c of ['article', 'answer', 'hub'] as const) {
      for (const e of index.entries.get(c)!) {
        const html = await markdownToSafeHtml(e.attributes.extras?.body ?? '');
        expect(html, e.attributes.slug).not.toMatch(/<script|<h1/i);
        expect(html.length, e.attributes.slug).toBeGreaterThan(200);
      }
    }
  });
});
