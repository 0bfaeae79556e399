/**
 * Markdown from content → HTML that is safe to put in a page: raw HTML in the source is
 * escaped (never rendered), then the result is passed through an allow-list sanitiser —
 * no <script>, no event handlers, links only to http(s)/mailto, and at most <h2> (a page has
 * one <h1>, the hero's).
 */
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html(token) {
      return escape(token.text);
    },
  },
});

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

export function markdownToSafeHtml(markdown: string): string {
  const raw = marked.parse(markdown) as string;
  return sanitizeHtml(raw, OPTIONS);
}
