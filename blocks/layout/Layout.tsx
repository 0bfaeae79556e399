import { useEffect, type CSSProperties, type ReactNode } from 'react';
import { installClientNavigation } from './clientNavigation';
import type { BrandView } from '../../engine/model';
import { Footer } from './Footer';
import { Header } from './Header';

export function Layout({ brand, children }: { brand: BrandView; children: ReactNode }) {
  useEffect(installClientNavigation, []);
  const vars = { '--brand-theme': brand.theme, '--brand-progress': brand.progressColor } as CSSProperties;
  return (
    <div style={vars} className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <Header brand={brand} />
      <main id="main" className="flex-1">{children}</main>
      <Footer brand={brand} />
    </div>
  );
}
