import type { BrandView } from '../../engine/model';
import { ApplyLink } from './ApplyLink';

/** Header: logo, navigation with drop-downs (open on hover and on keyboard focus, no script), APPLY NOW. */
export function Header({ brand }: { brand: BrandView }) {
  const full = brand.layout === 'full';
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center gap-4 px-4 py-3">
        <a href="/" className="shrink-0" aria-label={`${brand.name} home`}>
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src={brand.logo} alt={brand.name} width={180} height={40} className="h-9 w-auto" />
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
        <ApplyLink apply={brand.apply} className={`${full ? 'hidden md:inline-block' : 'ml-auto inline-block'} rounded-md bg-brand px-4 py-2 text-sm font-bold text-white hover:opacity-90`}>
          {brand.apply.label}
        </ApplyLink>
        {full && brand.nav.length > 0 && (
          <details className="relative ml-auto md:hidden">
            <summary className="cursor-pointer list-none rounded-md border border-slate-300 px-3 py-2 text-sm font-medium">Menu</summary>
            <nav aria-label="Mobile" className="absolute right-0 z-20 mt-2 w-72 rounded-md border border-slate-200 bg-white p-3 shadow-lg">
              <ul className="space-y-1">
                {brand.nav.map((item) => (
                  <li key={item.label}>
                    {item.href ? (
                      <a href={item.href} className="block py-1 font-medium">{item.label}</a>
                    ) : (
                      <span className="block py-1 font-semibold text-slate-600">{item.label}</span>
                    )}
                    {item.children && (
                      <ul className="ml-3 border-l border-slate-200 pl-3">
                        {item.children.map((c) => (
                          <li key={c.href}><a href={c.href} className="block py-1 text-sm">{c.label}</a></li>
                        ))}
                      </ul>
                    )}
                  </li>
                ))}
              </ul>
              <ApplyLink apply={brand.apply} className="mt-3 block rounded-md bg-brand px-4 py-2 text-center font-bold text-white">
                {brand.apply.label}
              </ApplyLink>
            </nav>
          </details>
        )}
      </div>
    </header>
  );
}
