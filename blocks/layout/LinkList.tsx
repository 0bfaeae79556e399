import type { LinkView } from '../../engine/model';

/** A responsive grid of links (internal ones navigate on the client: see clientNavigation.ts). */
export function LinkList({ links, columns = 'sm:grid-cols-2 lg:grid-cols-3' }: { links: readonly LinkView[]; columns?: string }) {
  return (
    <ul className={`grid grid-cols-1 gap-2 ${columns}`}>
      {links.map((l) => (
        <li key={l.href}>
          <a href={l.href} {...(l.href.startsWith('/') ? {} : { rel: 'noopener' })} className="flex min-h-11 items-center rounded border border-slate-200 px-3 py-2 leading-tight text-blue-800 hover:bg-slate-50">
            {l.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
