import type { LinkView } from '../../engine/site/model';

/**
 * A responsive grid of links (internal ones navigate on the client: see clientNavigation.ts), one to
 * three columns as .link-tiles lays them out (styles/globals.css); `columns` are utilities that
 * override those from their breakpoint on.
 */
export function LinkList({ links, columns }: { links: readonly LinkView[]; columns?: string }) {
  return (
    <ul className={columns ? `link-tiles ${columns}` : 'link-tiles'}>
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
