/**
 * The path of a content entry's page on a brand: the content routes are fixed
 * (engine/site/brandExpand.ts CONTENT_SECTION_ROUTES), so an entry's page is where its
 * collection, slug and category put it, whichever back end lists it.
 */
import type { Collection } from './types';

export function contentPath(collection: Collection, slug: string, category: string | null): string {
  switch (collection) {
    case 'article':
      return `/blog/${category}/${slug}`;
    case 'answer':
      return `/answers/${slug}`;
    case 'hub':
      return `/hub/${slug}`;
    case 'author':
      return `/author/${slug}`;
    case 'category':
      return `/blog/${slug}`;
    case 'tag':
      return `/tag/${slug}`;
  }
}
