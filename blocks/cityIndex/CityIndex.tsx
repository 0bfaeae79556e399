import type { LinkView } from '../../engine/model';
import type { BlockProps } from '../types';
import { Section } from '../layout/Section';

const Nav = ({ label, links }: { label: string; links: (LinkView & { current: boolean })[] }) => (
  <nav aria-label={label} className="mb-4">
    <ul className="flex flex-wrap gap-1">
      {links.map((l) => (
        <li key={l.href}>
          <a href={l.href} aria-current={l.current ? 'page' : undefined} className={`block min-w-9 rounded border px-2 py-1 text-center ${l.current ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 text-blue-800'}`}>
            {l.label}
          </a>
        </li>
      ))}
    </ul>
  </nav>
);

export default function CityIndex({ block }: BlockProps<'cityIndex'>) {
  const { groups, letters, pages } = block.data;
  return (
    <Section heading={block.heading} wide>
      {letters && <Nav label="Cities by first letter" links={letters} />}
      {groups.map((g) => (
        <div key={g.letter} className="mb-4">
          {groups.length > 1 && <h3 className="mb-1 font-semibold text-slate-900">{g.letter}</h3>}
          <ul className="columns-2 gap-4 text-sm xs:columns-3 md:columns-4 lg:columns-5">
            {g.links.map((l) => (
              <li key={l.href} className="break-inside-avoid py-0.5"><a href={l.href} className="text-blue-800 underline-offset-2 hover:underline">{l.label}</a></li>
            ))}
          </ul>
        </div>
      ))}
      {pages && <Nav label={`Pages, ${pages.current} of ${pages.count}`} links={pages.links} />}
    </Section>
  );
}
