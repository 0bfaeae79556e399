import { useEffect, useLayoutEffect, type ReactNode } from 'react';
import { brandVars } from './brandVars';
import { installLayoutBehaviour } from './behaviour';
import { installClientNavigation } from './clientNavigation';
import { ExitIntent } from './ExitIntent';
import type { BrandView } from '../../engine/model';
import { Footer } from './Footer';
import { Header } from './Header';
import { StickyApply } from './StickyApply';
import { rememberThisVisit, traceSessionWhenIdle } from './visitTracking';
import { installThirdParties } from './thirdParties';

export function Layout({ brand, stickyApply = false, children }: { brand: BrandView; stickyApply?: boolean; children: ReactNode }) {
  // A layout effect: it runs before the blocks' effects, so widgets read this visit's LoansSource1.
  useLayoutEffect(rememberThisVisit, []);
  useEffect(() => {
    // Marks the page as hydrated (client links, menus and widgets now answer): tests wait for it,
    // Next sets no such marker in production builds.
    document.documentElement.dataset.hydrated = '';
    const off = [installClientNavigation(), installLayoutBehaviour(), traceSessionWhenIdle(), installThirdParties({ gtmId: brand.gtmId, pixelId: brand.tiktokPixelId })];
    return () => off.forEach((f) => f());
    // The brand of a page never changes under a mounted layout (one host, one brand).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div style={brandVars(brand)} className="flex min-h-screen flex-col">
      <div id="route-progress" aria-hidden="true" />
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <Header brand={brand} />
      <main id="main" className="flex-1">{children}</main>
      <Footer brand={brand} />
      {stickyApply && <StickyApply brand={brand} />}
      <ExitIntent brand={brand} />
    </div>
  );
}
