/**
 * Markdown from content → HTML that is safe to put in a page: raw HTML in the source is
 * escaped (never rendered), then the result is passed through an allow-list sanitiser —
 * no <script>, no event handlers, links only to http(s)/mailto, and at most <h2> (a page has
 * one <h1>, the hero's).
 *
 * marked and sanitize-html (with postcss and htmlparser2) are imported on the first call, not
 * with this module: the front door's bundle inlines this file, and a static import here would
 * load them in every server at start, whether or not it ever renders a content page.
 */
import type { Marked } from 'marked';
import type sanitizeHtml from 'sanitize-html';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['h2', 'h3', 'h4', 'p', 'ul', 'ol', 'li', 'strong', 'em', 'a', 'blockquote', 'code', 'pre', 'hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td'],
  allowedAttributes: { a: ['href', 'rel'], th: ['align'], td: ['align'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  transformTags: {
    h1: 'h2',
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, ...(attribs.href && /^https?:/i.test(attribs.href) ? { rel: 'noopener nofollow' } : {}) },
    }),
  },
};

type Libraries = { marked: Marked; sanitize: typeof sanitizeHtml };
let libraries: Promise<Libraries> | undefined;

function load(): Promise<Libraries> {
  if (libraries) return libraries;
  libraries = Promise.all([import('marked'), import('sanitize-html')]).then(([m, s]) => ({
    marked: new m.Marked({
      gfm: true,
      async: false,
      renderer: {
        html(token) {
          return escape(token.text);
        },
      },
    }),
    sanitize: s.default,
  }));
  // a failed import is not remembered: the next call tries again
  libraries.catch(() => (libraries = undefined));
  return libraries;
}

export async function markdownToSafeHtml(markdown: string): Promise<string> {
  const { marked, sanitize } = await load();
  const raw = marked.parse(markdown) as string;
  return sanitize(raw, OPTIONS);
}
