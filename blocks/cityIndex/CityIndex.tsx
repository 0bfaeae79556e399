import type { BlockProps } from '../types';
import { PillNav } from '../chrome/PillNav';
import { Section } from '../chrome/Section';

export default function CityIndex({ block }: BlockProps<'cityIndex'>) {
  const { groups, letters, pages } = block.data;
  return (
    <Section heading={block.heading} wide>
      {letters && <PillNav label="Cities by first letter" links={letters} />}
      {groups.map((g) => (
        <div key={g.letter} className="mb-4">
          {groups.length > 1 && <h3 className="mb-1 font-semibold text-slate-900">{g.letter}</h3>}
          <ul className="columns-2 gap-4 text-sm xs:columns-3 md:columns-4 lg:columns-5">
            {g.links.map((l) => (
              <li key={l.href} className="break-inside-avoid">
                <a href={l.href} className="inline-flex min-h-11 items-center text-blue-800 underline-offset-2 hover:underline">
                  {l.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {pages && <PillNav label={`Pages, ${pages.current} of ${pages.count}`} links={pages.links} />}
    </Section>
  );
}
