/**
 * The page's head after a client-side navigation: title, description, canonical (or noindex: a 404, an empty list page),
 * theme colour and JSON-LD, written into the document directly. The server's HTML gets the same
 * tags from pages/_document.tsx, which has the full page model; next/head is not used (its code
 * was ~1.2 KiB gzip of every page's script for what these few lines do).
 */
import type { PageModel } from '../../engine/site/model';

function tag(selector: string, create: () => HTMLElement): HTMLElement {
  return document.head.querySelector<HTMLElement>(selector) ?? document.head.appendChild(create());
}

const meta = (name: string) => () => Object.assign(document.createElement('meta'), { name });

export function writePageHead(
  model: Pick<PageModel, 'title' | 'description' | 'status' | 'canonical' | 'jsonLd' | 'noindex'> & { brand: { theme: string } },
): void {
  document.title = model.title;
  tag('meta[name="description"]', meta('description')).setAttribute('content', model.description);
  tag('meta[name="theme-color"]', meta('theme-color')).setAttribute('content', model.brand.theme);
  if (model.status === 200 && !model.noindex) {
    document.head.querySelector('meta[name="robots"]')?.remove();
    tag('link[rel="canonical"]', () => Object.assign(document.createElement('link'), { rel: 'canonical' })).setAttribute('href', model.canonical);
  } else {
    document.head.querySelector('link[rel="canonical"]')?.remove();
    tag('meta[name="robots"]', meta('robots')).setAttribute('content', 'noindex');
  }
  for (const old of document.head.querySelectorAll('script[type="application/ld+json"]')) old.remove();
  for (const data of model.jsonLd) {
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.text = JSON.stringify(data);
    document.head.appendChild(script);
  }
}
