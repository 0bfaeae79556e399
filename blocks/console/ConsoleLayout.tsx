/**
 * The frame of every console page: a skip link, the navigation (only the pages the role may
 * open; the server refuses the others anyway), who is signed in and the sign-out form, and the
 * page's content — or, for a role without the page's permission, a plain "not for your role".
 * No script: links and forms only, so everything works by keyboard as the browser made it.
 */
import Head from 'next/head';
import { createElement, Fragment, type ReactNode } from 'react';
import type { Permission } from '../../engine/console/roles';
import type { Viewer } from '../../engine/console/pages';
import { visibleText } from '../../engine/browser/safeText';

const NAV: [href: string, label: string, permission: Permission][] = [
  ['/', 'Overview', 'overview.view'],
  ['/leads', 'Leads', 'leads.list'],
  ['/quality', 'Lead quality', 'leads.list'],
  ['/experiments', 'Experiments', 'overview.view'],
  ['/buyers', 'Buyers', 'buyers.view'],
  ['/brands', 'Brands', 'brands.view'],
  ['/studio', 'Studio', 'studio.view'],
  ['/exports', 'Exports', 'exports.run'],
  ['/users', 'Users', 'users.manage'],
  ['/audit', 'Audit log', 'audit.view'],
  ['/settings', 'Settings', 'settings.manage'],
];

// 44 px targets on a phone (WCAG 2.5.5, where fingers tap), the denser 32 px from the sm breakpoint up
export const linkClass = 'inline-flex min-h-11 min-w-11 items-center rounded px-1 text-blue-800 underline hover:text-blue-950 sm:min-h-8 sm:min-w-0';
export const buttonClass =
  'inline-flex min-h-11 items-center rounded bg-blue-800 px-4 py-2 font-semibold text-white hover:bg-blue-900 focus-visible:outline-offset-2 sm:min-h-10';
export const inputClass = 'min-h-11 max-w-full rounded border border-slate-500 px-2 py-1 sm:min-h-10';

/** The From and To days of a filter or an export (`from`, `to` as YYYY-MM-DD); an export needs both. */
export function DateRangeFields(props: { from?: string; to?: string; required?: boolean }) {
  return (
    <>
      <label className="flex flex-col text-sm">
        From
        <input type="date" name="from" defaultValue={props.from} required={props.required} className={inputClass} />
      </label>
      <label className="flex flex-col text-sm">
        To
        <input type="date" name="to" defaultValue={props.to} required={props.required} className={inputClass} />
      </label>
    </>
  );
}

/** A filter chosen from a list, or none (`all`, the empty value). */
export function FilterSelect({ label, name, value, all, options }: { label: string; name: string; value: string; all: string; options: readonly string[] }) {
  return (
    <label className="flex flex-col text-sm">
      {label}
      <select name={name} defaultValue={value} className={inputClass}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A select's options, each value its own label. */
export function Options(props: { values: readonly string[] }) {
  return props.values.map((v) => (
    <option key={v} value={v}>
      {v}
    </option>
  ));
}

/**
 * Text that came from outside, inside a sentence or a joined fact: shown as visibleText shows it,
 * and isolated in a <bdi> so its direction stays its own — a right-to-left source beside
 * " / 12" would otherwise take the separator and the number into its run ("12 / مصدر").
 */
export function Said({ text }: { text: string }) {
  return <bdi>{visibleText(text)}</bdi>;
}

/** A joined fact whose every interpolated value is Said: said`${lead.source} / ${lead.source2}`. */
export function said(parts: TemplateStringsArray, ...values: string[]): ReactNode {
  return createElement(Fragment, null, ...parts.flatMap((part, i) => (i < values.length ? [part, <Said key={i} text={values[i]!} />] : [part])));
}

export function ConsoleLayout(props: { title: string; viewer?: Viewer; current?: string; forbidden?: boolean; children?: ReactNode }) {
  const { title, viewer, current, forbidden } = props;
  return (
    <>
      <Head>
        <title>{`${visibleText(title)} · Console`}</title>
        <meta name="robots" content="noindex, nofollow" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </Head>
      <a href="#main" className="sr-only rounded bg-white p-2 text-blue-800 focus:not-sr-only focus:absolute focus:top-2 focus:left-2">
        Skip to content
      </a>
      <header className="border-b border-slate-300 bg-slate-100">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-2">
          <p className="font-bold">Loansites console</p>
          {viewer && (
            <form method="post" action="/api/console/logout" className="flex items-center gap-3">
              <span className="text-sm">
                <a href="/account" className={linkClass} aria-current={current === '/account' ? 'page' : undefined}>
                  {visibleText(viewer.email)}
                </a>{' '}
                <span className="text-slate-700">({viewer.role})</span>
              </span>
              <input type="hidden" name="csrf" value={viewer.csrf} />
              <button type="submit" className="inline-flex min-h-11 items-center rounded border border-slate-600 bg-white px-3 sm:min-h-10">
                Sign out
              </button>
            </form>
          )}
        </div>
        {viewer && (
          <nav aria-label="Console" className="mx-auto max-w-6xl px-4 pb-2">
            <ul className="flex flex-wrap gap-x-4 gap-y-1">
              {NAV.filter(([, , p]) => viewer.may.includes(p)).map(([href, label]) => (
                <li key={href}>
                  <a href={href} className={linkClass} aria-current={current === href ? 'page' : undefined}>
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </header>
      {/* a long word or command (an email, `npm run …`) wraps on a phone instead of widening the page */}
      <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 break-words [&_code]:break-all">
        <h1 className="mb-4 text-2xl font-bold">{forbidden ? 'Not for your role' : visibleText(title)}</h1>
        {forbidden ? <p>Your role ({viewer?.role}) may not open this page. Ask an admin if you need it.</p> : props.children}
      </main>
    </>
  );
}

/** A table's sortable headers: a link per column (the console sends no script) and the column sorted now. */
export interface TableSort {
  hrefs: string[];
  active: number;
  dir: 'asc' | 'desc';
  /** the columns that sort (every column when absent) */
  only?: number[];
}

/**
 * A table with a caption, scrolled sideways on a phone rather than squeezed. Its text cells
 * show control and bidirectional characters as visible escapes (engine/browser/safeText.ts): a cell is
 * often what someone outside typed, and must not reorder or hide the rest of its row.
 */
export function DataTable(props: { caption: string; head: string[]; rows: ReactNode[][]; numeric?: boolean[]; sort?: TableSort }) {
  const { sort } = props;
  return (
    // A phone scrolls a wide table inside its own box (the page itself never scrolls sideways): the box
    // is focusable so a keyboard can scroll it too, its edges shade while columns are hidden past them,
    // and the caption says so. CSS only: the console runs no script. `relative` keeps a visually hidden
    // label in a cell (absolutely placed) inside the box, where it would otherwise widen the page.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take focus to be scrolled by keyboard (axe scrollable-region-focusable)
    <div className="console-scroll relative mb-6 overflow-x-auto" tabIndex={0} role="region" aria-label={`${props.caption} (scrolls sideways)`}>
      <table className="min-w-full border-collapse text-sm">
        <caption className="mb-1 text-left font-semibold">
          {props.caption}
          <span className="block text-xs font-normal text-slate-700 md:hidden">Scroll sideways for every column →</span>
        </caption>
        <thead>
          <tr>
            {props.head.map((h, i) => (
              <th
                key={h}
                scope="col"
                aria-sort={sort?.active === i ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                className={`border-b border-slate-400 px-2 py-1 ${props.numeric?.[i] ? 'text-right' : 'text-left'}`}
              >
                {sort?.hrefs[i] && (!sort.only || sort.only.includes(i)) ? (
                  <a href={sort.hrefs[i]} className="inline-flex min-h-11 min-w-11 items-center underline sm:min-h-6 sm:min-w-0">
                    {h}
                    {sort.active === i && <span aria-hidden="true">{sort.dir === 'asc' ? ' ▲' : ' ▼'}</span>}
                  </a>
                ) : (
                  h
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.length === 0 ? (
            <tr>
              <td colSpan={props.head.length} className="px-2 py-2 text-slate-700">
                Nothing in this range.
              </td>
            </tr>
          ) : (
            props.rows.map((r, i) => (
              <tr key={i} className="border-b border-slate-200">
                {r.map((c, j) => (
                  <td key={j} className={`px-2 py-1 ${props.numeric?.[j] ? 'text-right tabular-nums' : ''}`}>
                    {typeof c === 'string' ? visibleText(c) : c}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
