import type { BrandView, LinkView } from '../../engine/site/model';
import { RenderedOnce } from './renderedOnce';

const SmartLink = ({ link }: { link: LinkView }) => (
  <a href={link.href} {...(link.href.startsWith('/') ? {} : { rel: 'noopener' })}>
    {link.label}
  </a>
);

/**
 * The footer's content; the <footer> element itself is Layout's (kept from the server's HTML on a
 * first load: Kept.tsx). Every link is in a .foot-links list (styles/globals.css): a 44 px tall
 * target (at least 44 px wide), the text as it reads. Its styles are classes there, not utilities
 * written into every page's HTML. It depends on the brand view alone: the
 * server renders it once per view (renderedOnce.tsx).
 */
export function Footer({ brand }: { brand: BrandView }) {
  return <RenderedOnce sameFor={brand} part="footer" className="mx-auto max-w-6xl px-4 py-8" render={() => <FooterContent brand={brand} />} />;
}

function FooterContent({ brand }: { brand: BrandView }) {
  const { footer } = brand;
  return (
    <>
      <div className="foot-grid">
        <div>
          <p className="text-base font-bold text-slate-900">{brand.name}</p>
          {footer.about && <p className="mt-2">{footer.about}</p>}
          {/* The operator, from the brand's organization data (engine/site/lending.ts). */}
          <address className="foot-links mt-2 not-italic">
            {brand.lending.contact.address}
            <br />
            <a href={`tel:${brand.lending.contact.telephone.replace(/[^+\d]/g, '')}`}>{brand.lending.contact.telephone}</a>
          </address>
        </div>
        {footer.columns.map((col) => (
          <nav key={col.title} aria-label={col.title}>
            <h2 className="foot-h">{col.title}</h2>
            <ul className="foot-col">
              {col.links.map((l) => (
                <li key={l.href}>
                  <SmartLink link={l} />
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      {footer.stateLinks && (
        <nav aria-label={footer.stateLinks.heading} className="mt-10">
          <h2 className="foot-h">{footer.stateLinks.heading}</h2>
          <ul className="foot-states">
            {footer.stateLinks.links.map((l) => (
              <li key={l.href}>
                <SmartLink link={l} />
              </li>
            ))}
          </ul>
        </nav>
      )}
      {(brand.privacyChoice || footer.contactOptOut) && (
        <p className="foot-legal">
          {brand.privacyChoice && <a href={brand.privacyChoice.href}>{brand.privacyChoice.label}</a>}
          {footer.contactOptOut && <a href={footer.contactOptOut.href}>{footer.contactOptOut.label}</a>}
        </p>
      )}
      <div className="foot-fine">
        {footer.disclaimers.map((d, i) => (
          <p key={i}>{d}</p>
        ))}
        <p>{footer.copyright}</p>
      </div>
    </>
  );
}
