import type { ReactNode } from 'react';
import type { ApplyView } from '../../engine/model';

/** Every hand-off to the apply page: a full page load (the application form loads its own scripts), rel="nofollow", new tab where the brand says. */
export function ApplyLink({ apply, href, className, children }: { apply: ApplyView; href?: string; className?: string; children: ReactNode }) {
  return (
    <a
      href={href ?? apply.href}
      rel={apply.newTab ? 'nofollow noopener' : 'nofollow'}
      data-full-load=""
      {...(apply.newTab ? { target: '_blank' } : {})}
      className={className}
    >
      {children}
    </a>
  );
}
