import type { BrandView, LinkView } from '../../engine/model';

const SmartLink = ({ link, className }: { link: LinkView; className?: string }) => (
  <a href={link.href} className={className} {...(link.href.startsWith('/') ? {} : { rel: 'noopener' })}>{link.label}</a>
);

/** Every footer link: a 44 px tall target (at least 44 px wide), the text as it reads. */
const LINK = 'inline-flex min-h-11 min-w-11 items-center underline-offset-2 hover:underline';

export function Footer({ brand }: { brand: BrandView }) {
  const { footer } = brand;
  return (
    <footer className="mt-12 border-t border-slate-200 bg-slate-50 text-sm text-slate-700">
      <div className="mx-auto max-w-6xl px-4 py-8">
        <div className="grid gap-6 sm:grid-cols-2 sm:gap-8 lg:grid-cols-4">
          <div>
            <p className="text-base font-bold text-slate-900">{brand.name}</p>
            {footer.about && <p className="mt-2">{footer.about}</p>}
            {/* The operator, from the brand's organization data (engine/lending.ts). */}
            <address className="mt-2 not-italic">
              {brand.lending.contact.address}
              <br />
              <a href={`tel:${brand.lending.contact.telephone.replace(/[^+\d]/g, '')}`} className={LINK}>{brand.lending.contact.telephone}</a>
            </address>
          </div>
          {footer.columns.map((col) => (
            <nav key={col.title} aria-label={col.title}>
              <h2 className="font-semibold text-slate-900">{col.title}</h2>
              <ul className="mt-1 flex flex-wrap gap-x-5 sm:block">
                {col.links.map((l) => (
                  <li key={l.href}><SmartLink link={l} className={LINK} /></li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        {footer.stateLinks && (
          <nav aria-label={footer.stateLinks.heading} className="mt-10">
            <h2 className="font-semibold text-slate-900">{footer.stateLinks.heading}</h2>
            <ul className="mt-1 grid grid-cols-[repeat(auto-fill,minmax(6.5rem,1fr))] gap-x-4 md:grid-cols-5 lg:grid-cols-6">
              {footer.stateLinks.links.map((l) => (
                <li key={l.href}><SmartLink link={l} className={LINK} /></li>
              ))}
            </ul>
          </nav>
        )}
        {brand.privacyChoice && (
          <p className="mt-8">
            <a href={brand.privacyChoice.href} className="inline-flex min-h-11 items-center font-semibold text-slate-900 underline underline-offset-2">
              {brand.privacyChoice.label}
            </a>
          </p>
        )}
        <div className="mt-10 space-y-3 border-t border-slate-200 pt-6 text-xs leading-relaxed text-slate-700">
          {footer.disclaimers.map((d, i) => (
            <p key={i}>{d}</p>
          ))}
          <p>{footer.copyright}</p>
        </div>
      </div>
    </footer>
  );
}
