import { preload } from 'react-dom';
import type { BrandView } from '../../engine/site/model';
import { ApplyLink } from './ApplyLink';
import { mobileMenuGroups } from '../../engine/browser/widgets/menu';
import { RenderedOnce } from './renderedOnce';

/**
 * Header: logo, navigation with drop-downs (open on hover and on keyboard focus, pure CSS),
 * APPLY NOW, and below md the mobile menu — a <details> disclosure, so it opens without script;
 * APPLY NOW first in it, then every group the same way (engine/browser/widgets/menu.ts). behaviour.ts
 * adds the solid header past 64 px of scroll; mobileMenu.ts the scroll lock, Escape and a tap outside.
 * The <header> element itself is Layout's (kept from the server's HTML on a first load: Kept.tsx).
 * It depends on the brand view alone: the server renders it once per view (renderedOnce.tsx).
 */
export function Header({ brand }: { brand: BrandView }) {
  const hasMenu = brand.layout === 'full' && brand.nav.length > 0;
  // React preloads a page's first images by itself when it renders them; the logo is in HTML
  // rendered beforehand, so it is asked for here (a no-op in the browser, whose page has it).
  if (typeof window === 'undefined') preload(brand.logo, { as: 'image' });
  return (
    // On a phone the menu button sits in a slot reserved at the right (absolute, with the row's
    // padding keeping room for it): while the HTML is still arriving, nothing before it moves when it appears.
    <RenderedOnce sameFor={brand} part="header" className={hasMenu ? 'hdr-row max-md:pr-[6.5rem]' : 'hdr-row'} render={() => <HeaderRow brand={brand} />} />
  );
}

function HeaderRow({ brand }: { brand: BrandView }) {
  const full = brand.layout === 'full';
  const hasMenu = full && brand.nav.length > 0;
  return (
    <>
      {/* On a 320 px phone the logo gives way (it shrinks, keeping its proportions) so search and menu fit. */}
      <a href={brand.homeHref} className="hdr-logo" aria-label={`${brand.name} home`}>
        <img src={brand.logo} alt={brand.name} width={180} height={40} />
      </a>
      {full && brand.nav.length > 0 && (
        <nav aria-label="Main" className="ml-auto hidden md:block">
          {/* Styled once in styles/globals.css (.nav-bar): drop-downs open on hover and on keyboard focus. */}
          <ul className="nav-bar">
            {brand.nav.map((item) => (
              <li key={item.label}>
                {item.href ? (
                  <a href={item.href}>{item.label}</a>
                ) : (
                  <button type="button" aria-haspopup="true">
                    {item.label}
                  </button>
                )}
                {item.children && (
                  <ul>
                    <LinkItems links={item.children} />
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </nav>
      )}
      {brand.search && (
        // Opens the location search panel on the brand's search page (blocks/locationSearch: #location-search).
        <a href={`${brand.search.href}#location-search`} aria-label={brand.search.label} className="hdr-search">
          <svg aria-hidden="true" viewBox="0 0 20 20" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="9" cy="9" r="6" />
            <path d="M14 14l4 4" />
          </svg>
        </a>
      )}
      <ApplyLink apply={brand.apply} className={`hdr-apply ${full ? 'hidden md:inline-flex' : `${brand.search ? '' : 'ml-auto '}inline-flex`}`}>
        {brand.apply.label}
      </ApplyLink>
      {hasMenu && (
        // A fixed box: while the HTML is still arriving Chromium may paint the <details> before its
        // <summary> (with a default "Details" label); a box of the final size keeps the header from jumping.
        <details data-mobile-menu="" className="menu group/menu">
          <summary className="menu-btn">
            <svg aria-hidden="true" viewBox="0 0 20 20" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M3 5h14M3 10h14M3 15h14" className="group-open/menu:hidden" />
              <path d="M5 5l10 10M15 5L5 15" className="hidden group-open/menu:block" />
            </svg>
            Menu
          </summary>
          {/* A tap on the dimmed page behind the panel closes the menu (mobileMenu.ts); the panel always leaves a 48 px strip of it. */}
          <div data-menu-backdrop="" aria-hidden="true" className="menu-backdrop" />
          <nav aria-label="Mobile" className="menu-panel">
            <ApplyLink apply={brand.apply} className="menu-apply">
              {brand.apply.label}
            </ApplyLink>
            <ul className="menu-groups mt-2">
              {mobileMenuGroups(brand.nav).map((group, i) =>
                group.label ? (
                  <li key={group.label}>
                    {/* Every group the same way: a plain label, then its links (the label's own page is one of them). */}
                    <p>{group.label}</p>
                    <ul>
                      <LinkItems links={group.links} />
                    </ul>
                  </li>
                ) : (
                  <LinkItems key={`links-${i}`} links={group.links} />
                ),
              )}
            </ul>
          </nav>
        </details>
      )}
    </>
  );
}

/** One list item per link (drop-downs and the mobile menu's groups). */
function LinkItems({ links }: { links: readonly { href: string; label: string }[] }) {
  return links.map((c) => (
    <li key={c.href}>
      <a href={c.href}>{c.label}</a>
    </li>
  ));
}
