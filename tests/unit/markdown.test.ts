import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { beforeAll, describe, expect, it } from 'vitest';
import { markdownToSafeHtml } from '../../engine/content/markdown';

describe('markdownToSafeHtml', () => {
  it('renders ordinary Markdown', async () => {
    expect(await markdownToSafeHtml('## Costs\n\nA **fee** of $15 per $100.\n\n- one\n- two')).toBe(
      '<h2>Costs</h2>\n<p>A <strong>fee</strong> of $15 per $100.</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n',
    );
  });
  it('turns an h1 into an h2 (the page already has its one h1)', async () => {
    expect(await markdownToSafeHtml('# Title')).toBe('<h2>Title</h2>\n');
  });
  it('marks external links noopener nofollow and drops javascript: links', async () => {
    const html = await markdownToSafeHtml('[a](https://www.ftc.gov/) [b](javascript:alert(1)) [c](mailto:help@example.com)');
    expect(html).toContain('<a href="https://www.ftc.gov/" rel="noopener nofollow">a</a>');
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toContain('<a href="mailto:help@example.com">c</a>');
  });

  const hostile = matter(readFileSync(join(__dirname, '../fixtures/content/articles/fixture-hostile.md'), 'utf8')).content;
  let html = '';
  beforeAll(async () => {
    html = await markdownToSafeHtml(hostile);
  });
  // Inside real tags (escaped text such as &lt;img onerror=…&gt; is shown, not run).
  it.each([/<script/i, /<[^>]*\sonerror\s*=/i, /<[^>]*\sonclick\s*=/i, /<img/i, /javascript:/i])('hostile content never yields %s', (pattern) => {
    expect(html).not.toMatch(pattern);
  });
  it('shows raw HTML from content as text instead of running it', () => {
    expect(html).toContain('&lt;script&gt;window.__pwned = true&lt;/script&gt;');
  });
});
