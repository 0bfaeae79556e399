import type { ReactNode } from 'react';
import { DEFAULT_SOURCE } from '../../engine/browser/applySource';
import type { ApplyView } from '../../engine/site/model';

/**
 * The hand-off form of the amount widgets. Without JavaScript it is a plain GET form to the
 * apply page (v1 and the amount field as named); with it, submitting goes to `href`, the URL
 * engine/browser/applySource.ts built from the stored source and the widget's rule for the amount.
 */
export function ApplyForm({
  apply,
  href,
  source,
  className,
  children,
}: {
  apply: ApplyView;
  href: string;
  source: string | null;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form
      method="get"
      action={apply.path}
      onSubmit={(e) => {
        e.preventDefault();
        window.location.assign(href);
      }}
      className={className}
    >
      <input type="hidden" name="v1" value={source ?? DEFAULT_SOURCE} />
      {children}
    </form>
  );
}
