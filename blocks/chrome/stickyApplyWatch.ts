/**
 * What shows and hides the phone's sticky apply button (StickyApply.tsx loads it on the page's
 * first scroll: the button only ever shows once the hero's button has scrolled away).
 * Shown once the hero's button — or the amount widget that opens the page in its stead
 * (engine/site/leadIn.ts), also marked data-hero-cta — (or, without one, the page's opening band) is above the screen;
 * while shown, the page gets room for it at the bottom so it never covers the end of the
 * content, and it stands aside whenever a privacy/cookie banner ([data-privacy-banner]) is on
 * screen. Its link carries the visit's stored source (v1), as every apply link does. Returns the
 * cleanup.
 */
import { storedSource, withApplySource } from '../../engine/browser/applySource';
import { localStore, rememberThisVisit } from './visitTracking';

export function watchStickyApply(el: HTMLElement): () => void {
  const link = el.querySelector('a');
  const href = link?.getAttribute('href');
  rememberThisVisit();
  if (link && href) link.setAttribute('href', withApplySource(href, storedSource(localStore())));
  const anchor = document.querySelector('[data-hero-cta]') ?? document.querySelector('#main > :first-child');
  let passed = false;
  const banner = () =>
    [...document.querySelectorAll<HTMLElement>('[data-privacy-banner]')].some((b) => {
      const r = b.getBoundingClientRect();
      return r.height > 0 && r.bottom > 0 && r.top < window.innerHeight && getComputedStyle(b).visibility !== 'hidden';
    });
  const update = () => {
    const show = passed && !banner();
    // Written only when it changes: the observer below also sees these attributes.
    if (el.hidden === show) el.hidden = !show;
    const room = show ? `${el.offsetHeight}px` : '';
    if (document.body.style.paddingBottom !== room) document.body.style.paddingBottom = room;
  };
  const io = new IntersectionObserver(([entry]) => {
    passed = !!entry && !entry.isIntersecting && entry.boundingClientRect.bottom <= 0;
    update();
  });
  if (anchor) io.observe(anchor);
  const mo = new MutationObserver(update);
  mo.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden', 'style', 'class'] });
  return () => {
    io.disconnect();
    mo.disconnect();
    document.body.style.paddingBottom = '';
  };
}
