import type { LinkView } from '../../engine/site/model';

/** A responsive grid of links (internal ones navigate on the client: see clientNavigation.ts). */
export function LinkList({ links, columns = 'sm:grid-cols-2 lg:grid-cols-3' }: { links: readonly LinkView[]; columns?: string }) {
  return (
    <ul className={`link-tiles grid grid-cols-1 gap-2 ${columns}`}>
      {links.map((l) => (
        <li key={l.href}>
          <a href={l.href} {...(l.href.startsWith('/') ? {} : { rel: 'noopener' })}>
            {l.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
