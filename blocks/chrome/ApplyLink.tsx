import type { ReactNode } from 'react';
import { withApplySource } from '../../engine/browser/applySource';
import type { ApplyView } from '../../engine/site/model';
import { useApplySource } from '../parts/useApplySource';

/**
 * Every hand-off to the apply page: a full page load (the application form loads its own scripts), rel="nofollow", new tab where the brand says.
 * v1 is the stored source (LoansSource1) once mounted, landing-page in the first HTML (SPEC §4).
 */
export function ApplyLink({ apply, href, className, children }: { apply: ApplyView; href?: string; className?: string; children: ReactNode }) {
  const source = useApplySource();
  return (
    <a
      href={withApplySource(href ?? apply.href, source)}
      rel={apply.newTab ? 'nofollow noopener' : 'nofollow'}
      data-full-load=""
      {...(apply.newTab ? { target: '_blank' } : {})}
      className={className}
    >
      {children}
    </a>
  );
}
