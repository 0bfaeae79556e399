/**
 * A page's structured data (JSON-LD): the organization on every page, its FAQ, the breadcrumb
 * trail of a state or city page, and an article's or answer's own description with its trail.
 */
import { specOf, type BlockSpecs } from '../blockSpec';
import type { LoadedBrand } from '../catalog';
import type { PageContent } from '../contentLoad';
import type { LinkView, ResolvedBlock } from '../model';
import { matchPath, searchPagePath } from '../pageMatch';
import { stateOf } from '../routeParams';
import type { RouteMatch } from '../routes';
import { articleJsonLd, breadcrumbJsonLd, faqJsonLd, organizationJsonLd, qaPageJsonLd } from './seo';
import { fill, type Vars } from '../templates';
import type { State } from '../../geo/states';

export interface PageFacts {
  loaded: LoadedBrand;
  path: string;
  /** undefined for the 404 page */
  match: RouteMatch | undefined;
  vars: Vars;
  /** the page's resolved blocks */
  blocks: ResolvedBlock[];
  /** the layout's title (a template) */
  title: string;
  content?: PageContent | undefined;
}

type JsonLd = Record<string, unknown>;

export function pageJsonLd(page: PageFacts): JsonLd[] {
  const { loaded, blocks, match } = page;
  const jsonLd: JsonLd[] = [organizationJsonLd(loaded.brand, searchPagePath(loaded))];
  const body = contentBody(blocks, loaded.specs);
  const faqs = [...blocks.flatMap((b) => specOf(loaded.specs, b.type).faqItems?.(b) ?? []), ...(body?.faq ?? [])];
  if (faqs.length) jsonLd.push(faqJsonLd(faqs));
  if (match && stateOf(match.params)) jsonLd.push(locationTrail(page));
  if (match && body && page.content?.entry) jsonLd.push(...contentJsonLd(page, body, page.content.entry.attributes));
  return jsonLd;
}

/** The first block that shows a content item gives it (undefined when that item failed to load). */
function contentBody(blocks: ResolvedBlock[], specs: BlockSpecs) {
  for (const b of blocks) {
    const spec = specOf(specs, b.type);
    if (spec.article) return spec.article(b.data);
  }
  return undefined;
}
type Body = NonNullable<ReturnType<typeof contentBody>>;
type Attributes = NonNullable<PageContent['entry']>['attributes'];

/**
 * The state a page is the page of (a state page: its state, no city), asked once per brand and
 * path: every city page of a state asks about the same few. The paths asked are those next to
 * pages that matched (a few per state and route), so the memo stays small; it is capped all the same.
 */
const statePages = new WeakMap<LoadedBrand, Map<string, string | null>>();
const STATE_PAGES_KEPT = 8192;
function stateOfPage(loaded: LoadedBrand, path: string): string | null {
  let known = statePages.get(loaded);
  if (!known) statePages.set(loaded, (known = new Map()));
  let state = known.get(path);
  if (state === undefined) {
    const match = matchPath(loaded, path);
    state = match && !match.params.city ? (stateOf(match.params)?.code ?? null) : null;
    if (known.size < STATE_PAGES_KEPT) known.set(path, state);
  }
  return state;
}

/**
 * The state's own page a city page's trail goes through: its parent path (/location/tx for
 * /location/tx/houston) or the state beside it (/title-loans/texas for /title-loans/houston),
 * when that is the page of this very state — a parent that is a loan-type page is not.
 */
function statePageOf(loaded: LoadedBrand, path: string, state: State): string | undefined {
  const parent = path.split('/').slice(0, -1).join('/');
  return [parent, `${parent}/${state.slug}`].find((p) => p && p !== path && stateOfPage(loaded, p) === state.code);
}

/** Home › state (when it has a page of its own) › this page, named by its hero. */
function locationTrail({ loaded, path, match, vars, blocks, title }: PageFacts): JsonLd {
  const { brand } = loaded;
  const first = blocks.find((b) => specOf(loaded.specs, b.type).pageHeading);
  const heading = (first && specOf(loaded.specs, first.type).pageHeading?.(first)) ?? title;
  const trail: LinkView[] = [{ label: brand.name, href: '/' }];
  const state = stateOf(match!.params)!;
  const statePage = match!.params.city ? statePageOf(loaded, path, state) : undefined;
  if (statePage) trail.push({ label: state.name, href: statePage });
  trail.push({ label: fill(heading, vars), href: path });
  return breadcrumbJsonLd(brand, trail);
}

/** An article or an answer described as one, and the trail home › section › category › this page. */
function contentJsonLd({ loaded, path }: PageFacts, body: Body, a: Attributes): JsonLd[] {
  const { brand } = loaded;
  const out: JsonLd[] = [];
  const author = body.author ? { authorName: body.author.name } : {};
  if (body.collection === 'article')
    out.push(articleJsonLd(brand, { url: a.url, title: a.title, description: a.description, publishedAt: a.publishedAt, updatedAt: a.updatedAt, ...author }));
  if (body.collection === 'answer') {
    const answerText = (a.extras?.body ?? '')
      .replace(/[#*_>`[\]]/g, '')
      .replace(/\((https?:[^)]*)\)/g, '')
      .trim();
    out.push(qaPageJsonLd(brand, { question: a.h1, answerText, url: a.url, publishedAt: a.publishedAt, ...author }));
  }
  const trail: LinkView[] = [{ label: brand.name, href: '/' }];
  const section =
    body.collection === 'article'
      ? { label: 'Blog', href: '/blog' }
      : body.collection === 'answer'
        ? { label: 'Answers', href: '/answers' }
        : body.collection === 'hub'
          ? { label: 'Knowledge hub', href: '/hub' }
          : { label: 'Authors', href: '/author' };
  if (matchPath(loaded, section.href)) trail.push(section);
  if (body.category && matchPath(loaded, body.category.href)) trail.push({ label: body.category.name, href: body.category.href });
  trail.push({ label: a.h1, href: path });
  out.push(breadcrumbJsonLd(brand, trail));
  return out;
}
