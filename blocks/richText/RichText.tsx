import type { BlockProps } from '../types';
import { Section } from '../chrome/Section';

export default function RichText({ block }: BlockProps<'richText'>) {
  return (
    <Section heading={block.heading}>
      <div className="space-y-4 leading-relaxed text-slate-800">
        {block.paragraphs.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
        {block.bullets && (
          <ul className="list-disc space-y-1 pl-6">
            {block.bullets.map((b, i) => (
              <li key={i}>{b}</li>
            ))}
          </ul>
        )}
      </div>
    </Section>
  );
}
