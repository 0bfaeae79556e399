import type { BrandView, LinkView } from '../../engine/model';

const SmartLink = ({ link, className }: { link: LinkView; className?: string }) => (
  <a href={link.href} className={className} {...(link.href.startsWith('/') ? {} : { rel: 'noopener' })}>{link.label}</a>
);

export function Footer({ brand }: { brand: BrandView }) {
  const { footer } = brand;
  return (
    <footer className="mt-12 border-t border-slate-200 bg-slate-50 text-sm text-slate-700">
      <div className="mx-auto max-w-6xl px-4 py-10">
        <div className="grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <p className="text-base font-bold text-slate-900">{brand.name}</p>
            {footer.about && <p className="mt-2">{footer.about}</p>}
          </div>
          {footer.columns.map((col) => (
            <nav key={col.title} aria-label={col.title}>
              <h2 className="font-semibold text-slate-900">{col.title}</h2>
              <ul className="mt-2 space-y-1">
                {col.links.map((l) => (
                  <li key={l.href}><SmartLink link={l} className="underline-offset-2 hover:underline" /></li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        {footer.stateLinks && (
          <nav aria-label={footer.stateLinks.heading} className="mt-10">
            <h2 className="font-semibold text-slate-900">{footer.stateLinks.heading}</h2>
            <ul className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 xs:grid-cols-3 md:grid-cols-5 lg:grid-cols-6">
              {footer.stateLinks.links.map((l) => (
                <li key={l.href}><SmartLink link={l} className="underline-offset-2 hover:underline" /></li>
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
