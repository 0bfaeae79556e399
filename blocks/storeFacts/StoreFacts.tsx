import type { BlockProps } from '../types';
import { Section } from '../chrome/Section';

export default function StoreFacts({ block }: BlockProps<'storeFacts'>) {
  const { paragraphs, nearMe } = block.data;
  return (
    <Section heading={block.heading}>
      <div className="space-y-4 leading-relaxed text-slate-800">
        {paragraphs.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
        {nearMe && (
          <p>
            <a href={nearMe.href} className="inline-flex min-h-11 items-center font-semibold text-blue-800 underline">
              {nearMe.label}
            </a>
          </p>
        )}
      </div>
    </Section>
  );
}
