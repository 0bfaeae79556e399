import { useEffect, useRef } from 'react';
import type { BrandView } from '../../engine/site/model';

/**
 * The phone's sticky apply button (below md; not on apply pages nor where the brand cannot serve
 * the state): hidden in the first HTML (no layout shift, nothing without script), shown once the
 * hero's button (or, without one, the page's opening band) has scrolled above the screen
 * (./stickyApplyWatch, in ./afterFirstInput's chunk, fetched on the page's first scroll — or at once when the page opens
 * already scrolled, as on a return visit). Its link is rendered like ApplyLink's but without the
 * hook: the visit's stored source (v1) is written into it at mount by keptParts.ts, as for every
 * kept apply link, and again by the watcher before it ever shows.
 */
export function StickyApply({ brand }: { brand: BrandView }) {
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    let off: (() => void) | undefined;
    let gone = false;
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      window.removeEventListener('scroll', start);
      import('./afterFirstInput')
        .then((m) => {
          if (!gone) off = m.watchStickyApply(el);
        })
        .catch((err) => console.warn('[sticky apply]', err));
    };
    window.addEventListener('scroll', start, { passive: true });
    // Opened already scrolled: read in the next frame, not in the hydration task (reading scrollY lays the page out).
    const first = requestAnimationFrame(() => window.scrollY > 0 && start());
    return () => {
      gone = true;
      cancelAnimationFrame(first);
      window.removeEventListener('scroll', start);
      off?.();
    };
  }, []);
  return (
    <div ref={bar} data-sticky-apply="" hidden className="sticky-apply">
      <a
        href={brand.apply.href}
        rel={brand.apply.newTab ? 'nofollow noopener' : 'nofollow'}
        data-full-load=""
        {...(brand.apply.newTab ? { target: '_blank' } : {})}
        className="sticky-apply-btn"
      >
        {brand.apply.label}
      </a>
    </div>
  );
}
