/** The body of the content item the path's {slug} names, with its author, tags and category. */
import type { ContentBodyData } from '../../engine/site/contentLoad';
import type { Entry } from '../../engine/content/types';
import type { BlockSpec } from '../../engine/site/blockSpec';

export type ContentBodyView = (ContentBodyData & { error?: undefined }) | { error: true };

export const contentBodySpec: BlockSpec<'contentBody', ContentBodyView, ContentBodyData> = {
  article: (view) => (view.error ? undefined : view),
  content: {
    load: async (_block, { entry, category, match, one, shownHere }) => {
      if (!entry) return undefined;
      const collection = match.route.content;
      const a = entry.attributes;
      const authorSlug = a.extras?.author;
      // the byline links to the author's page only on a brand that shows it (elsewhere it is a 404): else the name alone
      const authorHere = authorSlug ? await one('author', authorSlug, shownHere('author')) : undefined;
      const author = authorHere ?? (authorSlug ? await one('author', authorSlug) : undefined);
      const tags = await Promise.all((a.extras?.tags ?? []).map((t) => one('tag', t)));
      const cat = a.category && collection === 'article' ? (category ?? (await one('category', a.category))) : undefined;
      // marked and sanitize-html (with postcss) load with the first content page: a server that has rendered none holds neither
      const { markdownToSafeHtml } = await import('../../engine/content/markdown');
      return {
        collection: collection!,
        html: await markdownToSafeHtml(a.extras?.body ?? ''),
        h1: a.h1,
        url: a.url,
        publishedAt: a.publishedAt,
        updatedAt: a.updatedAt,
        ...(author ? { author: { name: author.attributes.h1, ...(authorHere ? { href: author.attributes.url } : {}) } } : {}),
        tags: tags.filter((t): t is Entry => !!t).map((t) => ({ name: t.attributes.h1, href: t.attributes.url })),
        ...(cat ? { category: { name: cat.attributes.h1, href: cat.attributes.url } } : {}),
        faq: a.extras?.faq ?? [],
      };
    },
  },
  data: (_block, _ctx, body) => body ?? { error: true },
  check: (_block, { needs, hasParam }) =>
    needs('{slug} and "content"', (r) => hasParam(r, 'slug') && !!r.content && r.content !== 'category' && r.content !== 'tag'),
};
