import type { LendingView } from '../../engine/site/lending';
import type { BrandView } from '../../engine/site/model';
import { Kept } from './Kept';

/**
 * Cost and trust beside an apply button, from the brand's lending setting (engine/site/lending.ts):
 * "not a lender / how we're paid" in one line, the representative example (APR range and one
 * worked example), and who runs the site — its phone and address from the organization data.
 * `expandable`: the example behind a <details> disclosure (opens by keyboard and without script,
 * announced as expanded/collapsed) — beside an amount widget that opens a phone's first screen,
 * where the full example would push the rest of the widget away; never left out.
 */
export function CostNote({
  lending,
  example = true,
  expandable = false,
  className = '',
}: {
  lending: LendingView;
  example?: boolean;
  expandable?: boolean;
  className?: string;
}) {
  const tel = lending.contact.telephone.replace(/[^+\d]/g, '');
  return (
    <div data-cost-note="" className={`text-sm leading-relaxed text-slate-700${className && ` ${className}`}`}>
      <p className="font-medium text-slate-800">{lending.howWePaid}</p>
      {example &&
        (expandable ? (
          <details className="cost-details mt-1">
            <summary>Representative example and costs</summary>
            <p className="pb-1">{lending.representativeExample}</p>
          </details>
        ) : (
          <p className="mt-2">{lending.representativeExample}</p>
        ))}
      {/* one text node each side of the link: React marks a boundary between two with <!-- --> */}
      <p className="mt-1">
        {'Questions? '}
        <a href={`tel:${tel}`} className="tel-link">
          {lending.contact.telephone}
        </a>
        {` · ${lending.contact.address}`}
      </p>
    </div>
  );
}

/**
 * The cost note of an amount widget that opens the page (engine/site/leadIn.ts), its example
 * expandable. The lending texts are not in a first load's data (blocks/hydrationModel.ts): the
 * browser keeps the server's HTML of the note, as it does for static blocks.
 */
export function WidgetCostNote({
  block,
  brand,
  className,
}: {
  block: { key: string };
  brand: Pick<BrandView, 'lending'> | { lending?: undefined };
  className: string;
}) {
  return (
    <Kept name={`${block.key}-cost`} kept={!brand.lending} className={className}>
      {brand.lending && <CostNote lending={brand.lending} expandable />}
    </Kept>
  );
}
