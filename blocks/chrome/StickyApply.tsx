import { useEffect, useRef } from 'react';
import type { BrandView } from '../../engine/model';
import { ApplyLink } from './ApplyLink';

/**
 * The phone's sticky apply button (below md; not on apply pages nor where the brand cannot serve
 * the state): hidden in the first HTML (no layout shift, nothing without script), shown once the
 * hero's button (or, without one, the page's opening band) has scrolled above the screen. While
 * shown, the page gets room for it at the bottom so it never covers the end of the content, and
 * it stands aside whenever a privacy/cookie banner ([data-privacy-banner]) is on screen.
 */
export function StickyApply({ brand }: { brand: BrandView }) {
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
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
  }, []);
  return (
    <div ref={bar} data-sticky-apply="" hidden className="sticky-apply">
      <ApplyLink apply={brand.apply} className="sticky-apply-btn">
        {brand.apply.label}
      </ApplyLink>
    </div>
  );
}
