import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { brandVars } from './brandVars';
import { installLayoutBehaviour } from './behaviour';
import { installClientNavigation } from './clientNavigation';
import { ExitIntent } from './ExitIntent';
import type { BrandView } from '../../engine/site/model';
import { Kept } from './Kept';
import { StickyApply } from './StickyApply';
import { afterVisitRemembered, rememberVisitSoon, traceSessionWhenIdle } from './visitTracking';
import { installThirdParties } from './thirdParties';
import { keptLinksFollowTheVisit } from './keptParts';
import { LazyFooter, LazyHeader } from '../registry';
import type { LiveBrand } from '../hydrationModel';

/**
 * The site chrome. `kept`: a first load, whose data has no nav or footer (hydrationModel.ts) —
 * the browser keeps the server's header and footer (Kept.tsx). The header stays kept for the
 * life of the page (it depends on the brand only, and behaviour.ts holds on to its elements);
 * the footer renders from the data after a client-side navigation (apply pages may differ).
 */
export function Layout({ brand, kept, stickyApply = false, children }: { brand: LiveBrand; kept: boolean; stickyApply?: boolean; children: ReactNode }) {
  const [headerKept] = useState(kept);
  // A layout effect: it runs before the blocks' effects, so the widgets waiting for this visit's LoansSource1 wait for this one.
  useLayoutEffect(rememberVisitSoon, []);
  useEffect(() => {
    // Marks the page as hydrated (client links, menus and widgets now answer): tests wait for it,
    // Next sets no such marker in production builds.
    document.documentElement.dataset.hydrated = '';
    const off = [
      afterVisitRemembered(keptLinksFollowTheVisit),
      installClientNavigation(),
      installLayoutBehaviour(),
      traceSessionWhenIdle(),
      installThirdParties({ gtmId: brand.gtmId, pixelId: brand.tiktokPixelId }),
    ];
    return () => off.forEach((f) => f());
    // The brand of a page never changes under a mounted layout (one host, one brand).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const full = brand as BrandView;
  return (
    <div style={brandVars(brand)} className="flex min-h-screen flex-col">
      <div id="route-progress" aria-hidden="true" />
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Kept as="header" name="header" kept={headerKept} data-site-header="" className="site-header">
        {!headerKept && <LazyHeader brand={full} />}
      </Kept>
      <main id="main" className="flex-1">
        {children}
      </main>
      <Kept as="footer" name="footer" kept={kept} className="site-footer">
        {!kept && <LazyFooter brand={full} />}
      </Kept>
      {stickyApply && <StickyApply brand={full} />}
      <ExitIntent brand={full} />
    </div>
  );
}
