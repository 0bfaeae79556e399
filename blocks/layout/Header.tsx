import type { BrandView } from '../../engine/model';
import { ApplyLink } from './ApplyLink';
import { mobileMenuGroups } from '../../engine/widgets/menu';

/**
 * Header: logo, navigation with drop-downs (open on hover and on keyboard focus, pure CSS),
 * APPLY NOW, and below md the mobile menu — a <details> disclosure, so it opens without script;
 * APPLY NOW first in it, then every group the same way (engine/widgets/menu.ts). behaviour.ts
 * adds the solid header past 64 px of scroll; mobileMenu.ts the scroll lock, Escape and a tap outside.
 */
export function Header({ brand }: { brand: BrandView }) {
  const full = brand.layout === 'full';
  const hasMenu = full && brand.nav.length > 0;
  return (
    <header data-site-header="" className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 transition-shadow duration-200 data-solid:bg-white data-solid:shadow-md">
      {/* On a phone the menu button sits in a slot reserved at the right (absolute, with the row's
          padding keeping room for it): while the HTML is still arriving, nothing before it moves when it appears. */}
      <div className={`relative mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:gap-4 ${hasMenu ? 'max-md:pr-[6.5rem]' : ''}`}>
        {/* On a 320 px phone the logo gives way (it shrinks, keeping its proportions) so search and menu fit. */}
        <a href={brand.homeHref} className="flex min-h-11 min-w-11 shrink items-center" aria-label={`${brand.name} home`}>
          <img src={brand.logo} alt={brand.name} width={180} height={40} className="h-9 w-auto max-w-full object-contain object-left" />
        </a>
        {full && brand.nav.length > 0 && (
          <nav aria-label="Main" className="ml-auto hidden md:block">
            <ul className="flex items-center gap-1">
              {brand.nav.map((item) => (
                <li key={item.label} className="group relative">
                  {item.href ? (
                    <a href={item.href} className="block rounded px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100">
                      {item.label}
                    </a>
                  ) : (
                    <button type="button" aria-haspopup="true" className="block rounded px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100">
                      {item.label}
                    </button>
                  )}
                  {item.children && (
                    <ul className="invisible absolute left-0 top-full z-20 min-w-56 rounded-md border border-slate-200 bg-white py-2 opacity-0 shadow-lg group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100">
                      {item.children.map((c) => (
                        <li key={c.href}>
                          <a href={c.href} className="block px-4 py-2 text-sm text-slate-800 hover:bg-slate-100 focus:bg-slate-100">
                            {c.label}
                          </a>
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        )}
        {brand.search && (
          // Opens the location search panel on the brand's search page (blocks/locationSearch: #location-search).
          <a href={`${brand.search.href}#location-search`} aria-label={brand.search.label} className="ml-auto inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 md:ml-0">
            <svg aria-hidden="true" viewBox="0 0 20 20" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <circle cx="9" cy="9" r="6" />
              <path d="M14 14l4 4" />
            </svg>
          </a>
        )}
        <ApplyLink apply={brand.apply} className={`${full ? 'hidden md:inline-flex' : `${brand.search ? '' : 'ml-auto '}inline-flex`} min-h-11 shrink-0 items-center rounded-md bg-brand px-4 py-2 text-sm font-bold text-white hover:opacity-90`}>
          {brand.apply.label}
        </ApplyLink>
        {hasMenu && (
          // A fixed box: while the HTML is still arriving Chromium may paint the <details> before its
          // <summary> (with a default "Details" label); a box of the final size keeps the header from jumping.
          <details data-mobile-menu="" className="group/menu absolute right-4 top-2.5 h-11 w-[5.5rem] md:hidden">
            <summary className="flex h-11 w-full cursor-pointer list-none items-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-medium [&::-webkit-details-marker]:hidden">
              <svg aria-hidden="true" viewBox="0 0 20 20" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
                <path d="M3 5h14M3 10h14M3 15h14" className="group-open/menu:hidden" />
                <path d="M5 5l10 10M15 5L5 15" className="hidden group-open/menu:block" />
              </svg>
              Menu
            </summary>
            {/* A tap on the dimmed page behind the panel closes the menu (mobileMenu.ts); the panel always leaves a 48 px strip of it. */}
            <div data-menu-backdrop="" aria-hidden="true" className="fixed inset-x-0 bottom-0 top-16 z-30 bg-slate-900/40" />
            <nav aria-label="Mobile" className="fixed inset-x-0 top-16 z-40 max-h-[calc(100dvh-7rem)] overflow-y-auto border-t border-slate-200 bg-white px-4 pb-6 pt-3 shadow-lg">
              <ApplyLink apply={brand.apply} className="flex min-h-12 items-center justify-center rounded-md bg-brand px-4 py-3 text-center font-bold text-white">
                {brand.apply.label}
              </ApplyLink>
              <ul className="mt-2">
                {mobileMenuGroups(brand.nav).map((group) =>
                  group.label ? (
                    <li key={group.label} className="mt-3">
                      {/* Every group the same way: a plain label, then its links (the label's own page is one of them). */}
                      <p className="text-xs font-bold uppercase tracking-wide text-slate-700">{group.label}</p>
                      <ul className="grid grid-cols-2 gap-x-3">
                        {group.links.map((c) => (
                          <li key={c.href}><a href={c.href} className="flex min-h-11 items-center py-1 leading-tight">{c.label}</a></li>
                        ))}
                      </ul>
                    </li>
                  ) : (
                    group.links.map((c) => (
                      <li key={c.href}><a href={c.href} className="flex min-h-11 items-center py-1 font-medium">{c.label}</a></li>
                    ))
                  ),
                )}
              </ul>
            </nav>
          </details>
        )}
      </div>
    </header>
  );
}
