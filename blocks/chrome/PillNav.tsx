import type { LinkView } from '../../engine/site/model';

/** A row of pill links (letters, letter groups, page numbers); the current one is marked aria-current. */
export function PillNav({ label, links, className = 'mb-4' }: { label: string; links: readonly (LinkView & { current: boolean })[]; className?: string }) {
  return (
    <nav aria-label={label} className={className}>
      <ul className="flex flex-wrap gap-1">
        {links.map((l) => (
          <li key={l.href}>
            <a
              href={l.href}
              aria-current={l.current ? 'page' : undefined}
              className={`flex min-h-11 min-w-11 items-center justify-center rounded border px-2 py-1 text-center ${l.current ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 text-blue-800'}`}
            >
              {l.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
