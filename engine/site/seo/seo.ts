/** Structured data (schema.org JSON-LD) built from brand config and the page. */
import type { Brand } from '../../../schemas/brand.types';
import type { LinkView } from '../model';

export const OPENING_HOURS = 'Mo-Fr 07:00-21:00';

export const origin = (brand: Brand) => `https://${brand.hosts[0]}`;
/** The primary production host, or the blog host for blog pages of a brand that has one — never the request's Host. */
export const canonicalUrl = (brand: Brand, path: string) =>
  (brand.blogHost && (path === '/blog' || path.startsWith('/blog/')) ? `https://${brand.blogHost}` : origin(brand)) + (path === '/' ? '/' : path);

/**
 * The brand as an organization. `searchPath` is the brand's search page, whose `?state=` goes to
 * that state's page: the SearchAction names it, and a brand without one has no SearchAction (a
 * search target a search engine would find a 404).
 */
export function organizationJsonLd(brand: Brand, searchPath?: string): Record<string, unknown> {
  const o = brand.organization;
  const base = origin(brand);
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: brand.name,
    ...(o.legalName ? { legalName: o.legalName } : {}),
    url: `${base}/`,
    logo: base + o.logo,
    brand: { '@type': 'Brand', name: brand.name },
    ...(o.publishingPrinciples ? { publishingPrinciples: base + o.publishingPrinciples } : {}),
    address: { '@type': 'PostalAddress', ...o.address },
    telephone: o.telephone,
    email: o.email,
    openingHours: OPENING_HOURS,
    sameAs: o.sameAs ?? [],
    ...(searchPath
      ? {
          potentialAction: {
            '@type': 'SearchAction',
            target: { '@type': 'EntryPoint', urlTemplate: `${canonicalUrl(brand, searchPath)}?state={search_term_string}` },
            'query-input': 'required name=search_term_string',
          },
        }
      : {}),
  };
}

export function faqJsonLd(items: readonly { question: string; answer: string }[]): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((i) => ({ '@type': 'Question', name: i.question, acceptedAnswer: { '@type': 'Answer', text: i.answer } })),
  };
}

export function breadcrumbJsonLd(brand: Brand, trail: readonly LinkView[]): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((l, i) => ({ '@type': 'ListItem', position: i + 1, name: l.label, item: canonicalUrl(brand, l.href) })),
  };
}

/** JSON for a <script type="application/ld+json">: "<" escaped so text can never close the tag. */
export const jsonLdText = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/** Article (SPEC §2: url, title, images, datePublished, dateModified, authorName, publisherName, publisherLogo, description). */
export function articleJsonLd(
  brand: Brand,
  a: { url: string; title: string; description: string; publishedAt: string | null; updatedAt: string; authorName?: string },
): Record<string, unknown> {
  const base = origin(brand);
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    url: canonicalUrl(brand, a.url),
    headline: a.title,
    image: [base + brand.organization.logo],
    // left out rather than empty when the CMS sent no readable date (engine/content/strapi.ts)
    ...((a.publishedAt ?? a.updatedAt) ? { datePublished: a.publishedAt ?? a.updatedAt } : {}),
    ...(a.updatedAt ? { dateModified: a.updatedAt } : {}),
    author: { '@type': a.authorName ? 'Person' : 'Organization', name: a.authorName ?? brand.name },
    publisher: { '@type': 'Organization', name: brand.name, logo: { '@type': 'ImageObject', url: base + brand.organization.logo } },
    description: a.description,
  };
}

/** QAPage for an answer page: the question and its accepted answer. */
export function qaPageJsonLd(
  brand: Brand,
  q: { question: string; answerText: string; url: string; publishedAt: string | null; authorName?: string },
): Record<string, unknown> {
  const author = { '@type': q.authorName ? 'Person' : 'Organization', name: q.authorName ?? brand.name };
  return {
    '@context': 'https://schema.org',
    '@type': 'QAPage',
    mainEntity: {
      '@type': 'Question',
      name: q.question,
      text: q.question,
      answerCount: 1,
      ...(q.publishedAt ? { datePublished: q.publishedAt } : {}),
      author,
      acceptedAnswer: { '@type': 'Answer', text: q.answerText, url: canonicalUrl(brand, q.url), author },
    },
  };
}
