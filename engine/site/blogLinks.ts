/**
 * A brand with a separate blog host (blog.ipaydayloans.com) serves only /blog pages there.
 * Its blog pages are one cached page for both hosts, so every link on them that leads out
 * of the blog — header, footer, blocks, apply buttons, links inside articles — is made
 * absolute to the brand's primary host; a relative one would be a 404 on the blog host.
 */
import { isBlogPath } from './hosts';
import type { BrandView } from './model';

const HREF_KEYS = new Set(['href', 'applyHref']);

/** "/apply?v1=x" → "https://ipaydayloans.com/apply?v1=x"; blog paths, fragments and absolute URLs unchanged. */
export function mainSiteHref(href: string, origin: string): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href;
  const path = href.split(/[?#]/)[0]!;
  return isBlogPath(path) ? href : origin + href;
}

/** The same for every href="/…" attribute in sanitized article HTML. */
export const mainSiteHtml = (html: string, origin: string): string =>
  html.replace(/href="(\/[^"]*)"/g, (_whole, href: string) => `href="${mainSiteHref(href, origin)}"`);

/** A deep copy of a page-model value with its links made absolute (keys href/applyHref, and article html). */
export function withMainSiteLinks<T>(value: T, origin: string): T {
  if (Array.isArray(value)) return value.map((v) => withMainSiteLinks(v, origin)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && HREF_KEYS.has(k)) out[k] = mainSiteHref(v, origin);
      else if (typeof v === 'string' && k === 'html') out[k] = mainSiteHtml(v, origin);
      else out[k] = withMainSiteLinks(v, origin);
    }
    return out as T;
  }
  return value;
}

/** The brand view of a blog page as both hosts serve it: home, apply and every link out of the blog on the brand's primary host. */
export function blogHostView(view: BrandView, origin: string): BrandView {
  return { ...withMainSiteLinks(view, origin), homeHref: `${origin}/`, apply: { ...withMainSiteLinks(view.apply, origin), path: origin + view.apply.path } };
}
