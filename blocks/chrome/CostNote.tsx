import type { LendingView } from '../../engine/lending';

/**
 * Cost and trust beside an apply button, from the brand's lending setting (engine/lending.ts):
 * "not a lender / how we're paid" in one line, the representative example (APR range and one
 * worked example), and who runs the site — its phone and address from the organization data.
 */
export function CostNote({ lending, example = true, className = '' }: { lending: LendingView; example?: boolean; className?: string }) {
  const tel = lending.contact.telephone.replace(/[^+\d]/g, '');
  return (
    <div data-cost-note="" className={`text-sm leading-relaxed text-slate-700 ${className}`}>
      <p className="font-medium text-slate-800">{lending.howWePaid}</p>
      {example && <p className="mt-2">{lending.representativeExample}</p>}
      <p className="mt-1">
        Questions?{' '}
        <a href={`tel:${tel}`} className="tel-link">
          {lending.contact.telephone}
        </a>{' '}
        · {lending.contact.address}
      </p>
    </div>
  );
}
