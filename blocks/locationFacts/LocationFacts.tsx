import type { BlockProps } from '../types';
import { Section } from '../chrome/Section';

export default function LocationFacts({ block }: BlockProps<'locationFacts'>) {
  const { paragraphs, nearby } = block.data;
  return (
    <Section heading={block.heading}>
      <div className="space-y-4 leading-relaxed text-slate-800">
        {paragraphs.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
      {nearby && nearby.length > 0 && (
        <>
          <h3 className="mt-6 font-semibold text-slate-900">Nearby places</h3>
          <ul className="mt-2 grid grid-cols-1 gap-1 xs:grid-cols-2">
            {nearby.map((c) => (
              <li key={c.label}>
                {c.href ? (
                  <a href={c.href} className="inline-flex min-h-11 items-center text-blue-800 underline">
                    {c.label}
                  </a>
                ) : (
                  c.label
                )}{' '}
                <span className="text-slate-600">({c.miles} mi)</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}
