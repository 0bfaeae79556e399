/**
 * One brand in the studio: its settings, navigation, footer and pages as forms generated from the
 * brand schema, every problem of the draft at its field and listed at the top, undo and redo for
 * the session, autosave of the draft (a save someone else made in between is shown, and the edits
 * made here are kept on top of it), publishing when no problem is left, and the live preview.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import brandSchema from '../../schemas/brand.schema.json';
import { diffBrands, fieldPlaceOf, type FieldChange } from '../../engine/browser/studio/brandDiff';
import { canRedo, canUndo, edit, rebase, redo, startHistory, undo, type EditHistory } from '../../engine/browser/studio/editHistory';
import { setPatch, type Patch, type Path } from '../../engine/browser/studio/patches';
import { encodePointer } from '../../engine/browser/jsonPointer';
import { placeProblems, problemsByField, type PlacedProblem, type Problem } from '../../engine/browser/studio/problemFields';
import { allFields, fieldFor, type Field, type FormContext, type Refs, type Schema } from '../../engine/browser/studio/schemaForm';
import { layoutFacts, pagesOf, type LayoutFacts } from '../../engine/browser/studio/layoutFacts';
import { FieldView, smallButton, type FieldActions } from './FieldView';
import { PreviewFrames } from './PreviewFrames';
import { useHydrated } from '../chrome/useHydrated';
import { studioApi } from './studioApi';

const root = brandSchema as unknown as Schema;
type Doc = Record<string, unknown> & { routes?: unknown[]; layouts?: Record<string, unknown> };

export interface BrandEditorProps {
  brandId: string;
  document: Doc;
  /** the draft version the document is (0: no draft yet, the published or file version) */
  version: number;
  published?: { version: number; author: string; savedAt: string };
  lastChange?: { author: string; savedAt: string };
  fileChanged: boolean;
  readOnly: boolean;
  csrf: string;
  problems: Problem[];
  /** what does not hold publishing back but should be settled first: another brand's draft claiming one of its hosts */
  warnings?: Problem[];
  /** the shared layouts' names, and the facts of those the brand's routes may show */
  sharedLayouts: Record<string, LayoutFacts>;
  blockParts: string[];
  routeParts: string[];
  /** pages of the brand as served now that its routes do not list (a shared part's) */
  knownPages: string[];
}

const SECTIONS = [
  ['settings', 'Settings'],
  ['nav', 'Navigation'],
  ['footer', 'Footer'],
  ['pages', 'Pages'],
] as const;
type Section = (typeof SECTIONS)[number][0];

/** Which section and page show a pointer's field. */
function placeOf(pointer: string, doc: Doc): { section: Section; route?: number } {
  if (pointer.startsWith('/nav')) return { section: 'nav' };
  if (pointer.startsWith('/footer')) return { section: 'footer' };
  const route = /^\/routes\/(\d+)/.exec(pointer);
  if (route) return { section: 'pages', route: Number(route[1]) };
  const layout = /^\/layouts\/([^/]+)/.exec(pointer);
  if (layout) {
    const i = (doc.routes ?? []).findIndex((r) => (r as { layout?: string } | null)?.layout === layout[1]);
    return { section: 'pages', ...(i >= 0 ? { route: i } : {}) };
  }
  return { section: 'settings' };
}

const SETTINGS_SKIP = new Set(['nav', 'footer', 'routes', 'layouts']);

type SaveState = { kind: 'saved' | 'saving' | 'unsaved' | 'error'; message: string };

export function BrandEditor(props: BrandEditorProps) {
  const api = useMemo(() => studioApi(props.csrf), [props.csrf]);
  const [history, setHistory] = useState<EditHistory<Doc>>(() => startHistory(props.document));
  const [version, setVersion] = useState(props.version);
  const [problems, setProblems] = useState<Problem[]>(props.problems);
  const [warnings, setWarnings] = useState<Problem[]>(props.warnings ?? []);
  const [save, setSave] = useState<SaveState>({ kind: 'saved', message: props.version ? `Draft version ${props.version}` : 'No changes yet' });
  const [conflict, setConflict] = useState<{ author: string; savedAt: string; changes: FieldChange[] } | undefined>(undefined);
  const [published, setPublished] = useState(props.published);
  const [section, setSection] = useState<Section>('settings');
  const [route, setRoute] = useState(0);
  const [publishNote, setPublishNote] = useState('');
  const parts = useRef<HTMLElement>(null);
  const doc = history.doc;
  // set once the page's script runs (its first paint is the server's HTML, before the editor works)
  const ready = useHydrated();
  // the fields stay disabled until then, rather than take typing the editor would not see
  const locked = props.readOnly || !ready;
  // edits not saved yet, as patches (undo and redo add theirs), and the document as last saved
  const unsaved = useRef<Patch[]>([]);
  const savedDoc = useRef<Doc>(props.document);
  const versionRef = useRef(props.version);

  const apply = useCallback(
    (patches: Patch[], key?: string) => {
      if (props.readOnly || !patches.length) return;
      unsaved.current.push(...patches);
      setHistory((h) => edit(h, patches, key ? { key } : {}));
      setSave({ kind: 'unsaved', message: 'Changes not saved yet' });
    },
    [props.readOnly],
  );
  const actions: FieldActions = useMemo(
    () => ({
      set: (path: Path, value: unknown, key?: string) =>
        setHistory((h) => {
          const patches = setPatch(h.doc, path, value);
          if (props.readOnly || !patches.length) return h;
          unsaved.current.push(...patches);
          setSave({ kind: 'unsaved', message: 'Changes not saved yet' });
          return edit(h, patches, key ? { key } : {});
        }),
      patch: (patches: Patch[]) => apply(patches),
      uploadLogo: async (file: File) => {
        const a = await api.logo(props.brandId, file);
        return a.ok ? { src: a.value.src } : { error: a.error };
      },
    }),
    [apply, props.readOnly, api, props.brandId],
  );
  const step = useCallback((back: boolean) => {
    setHistory((h) => {
      if (back ? !canUndo(h) : !canRedo(h)) return h;
      const moved = back ? h.past[h.past.length - 1]! : h.future[0]!;
      unsaved.current.push(...(back ? moved.inverse : moved.patches));
      setSave({ kind: 'unsaved', message: 'Changes not saved yet' });
      return back ? undo(h) : redo(h);
    });
  }, []);

  // Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z or Ctrl+Y redoes, anywhere in the editor
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || props.readOnly) return;
      const key = e.key.toLowerCase();
      if (key === 'z' || key === 'y') {
        e.preventDefault();
        step(key === 'z' && !e.shiftKey);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [step, props.readOnly]);

  // autosave: a moment (150 ms: the preview follows the save, and should follow within a second)
  // after the last edit, the draft is saved over the version this page
  // last saw — one save at a time (a second one sent before the first answers would be refused as
  // a conflict with this very page); edits made meanwhile are saved when it answers
  const saving = useRef(false);
  const [saveAgain, setSaveAgain] = useState(0);
  useEffect(() => {
    if (props.readOnly || !unsaved.current.length) return;
    const timer = setTimeout(async () => {
      if (saving.current) return;
      saving.current = true;
      const sending = unsaved.current.length;
      const sent = doc;
      setSave({ kind: 'saving', message: 'Saving…' });
      const answer = await api.saveDraft(props.brandId, sent, versionRef.current);
      if (answer.ok) {
        versionRef.current = answer.value.version;
        setVersion(answer.value.version);
        savedDoc.current = sent;
        unsaved.current = unsaved.current.slice(sending);
        // the same problems again (the usual case while typing) keep their list, so the form is not
        // placed and drawn again while the preview frames load
        const next = answer.value.problems ?? [];
        setProblems((had) => (JSON.stringify(had) === JSON.stringify(next) ? had : next));
        const warned = answer.value.warnings ?? [];
        setWarnings((had) => (JSON.stringify(had) === JSON.stringify(warned) ? had : warned));
        setSave({ kind: unsaved.current.length ? 'unsaved' : 'saved', message: `Saved as draft version ${answer.value.version}` });
      } else if (answer.status === 409 && answer.current) {
        // someone saved in between: their version, with this page's unsaved edits on top, is saved next
        const theirs = answer.current;
        setConflict({ author: theirs.author, savedAt: theirs.savedAt, changes: diffBrands(savedDoc.current, theirs.document) });
        versionRef.current = theirs.version;
        savedDoc.current = theirs.document as Doc;
        setHistory((h) => rebase(h, theirs.document as Doc, unsaved.current));
        setSave({ kind: 'unsaved', message: `Version ${theirs.version} by ${theirs.author} taken in; your edits are kept on top of it` });
      } else {
        if (answer.problems) setProblems(answer.problems);
        setSave({ kind: 'error', message: answer.error });
      }
      saving.current = false;
      if (answer.ok && unsaved.current.length) setSaveAgain((n) => n + 1);
    }, 150);
    return () => clearTimeout(timer);
  }, [doc, saveAgain, api, props.brandId, props.readOnly]);

  const facts = useMemo(() => layoutFacts({ layouts: doc.layouts }, props.sharedLayouts), [doc.layouts, props.sharedLayouts]);
  // what the pickers list and the layouts' parameters, kept the same while their content is: the
  // form's context stays the same and its fields are made again only where an edit changed the brand
  const refsKey = JSON.stringify({
    layouts: [...new Set([...Object.keys(doc.layouts ?? {}), ...Object.keys(props.sharedLayouts)])].sort(),
    blockParts: props.blockParts,
    routeParts: props.routeParts,
    linkLists: Object.keys((doc.linkLists as object | undefined) ?? {}),
    pages: pagesOf(doc, props.knownPages),
  });
  const paramsKey = JSON.stringify([...facts].map(([name, f]) => [name, f.params]));
  const ctx: FormContext = useMemo(() => {
    const refs = JSON.parse(refsKey) as Refs;
    const params = new Map(JSON.parse(paramsKey) as [string, LayoutFacts['params']][]);
    return { root, refs, layoutParamsOf: (r) => params.get(String(r.layout)), cache: new WeakMap() };
  }, [refsKey, paramsKey]);
  const whole = useMemo(() => fieldFor(ctx, root, doc, [], '', true) as Extract<Field, { kind: 'object' }>, [ctx, doc]);
  const placed = useMemo(() => {
    const pointers = new Set<string>();
    for (const f of allFields(whole)) pointers.add(f.pointer);
    return placeProblems(problems, pointers, doc as { routes?: unknown[] });
  }, [whole, problems, doc]);
  // the same problems at the same fields keep the same map, so the fields an edit did not touch are not drawn again
  const placedKey = JSON.stringify(placed);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by content on purpose: `placed` is a new array after every edit
  const byField = useMemo(() => problemsByField(placed), [placedKey]);

  const goTo = (p: PlacedProblem) => {
    const where = placeOf(p.at ?? p.pointer, doc);
    setSection(where.section);
    if (where.route !== undefined) setRoute(where.route);
    requestAnimationFrame(() => {
      const el = p.fieldId ? document.getElementById(p.fieldId) : undefined;
      el?.scrollIntoView({ block: 'center' });
      el?.focus();
    });
  };

  // a publish refused for problems hands the keyboard (and a screen reader) to their list, as the
  // wizard's refused creation does: the Publish button the problems disable would drop the focus to the page's start
  const summary = useRef<HTMLElement>(null);
  const [refusedAt, setRefusedAt] = useState(0);
  useEffect(() => {
    if (refusedAt) summary.current?.focus();
  }, [refusedAt]);

  const publish = async () => {
    setPublishNote('Publishing…');
    const a = await api.publish(props.brandId, versionRef.current);
    if (a.ok) {
      setPublished({ version: a.value.publishedVersion, author: 'you', savedAt: new Date().toISOString() });
      setPublishNote(`Published version ${a.value.publishedVersion}: the brand's sites show it now.`);
    } else {
      if (a.problems?.length) {
        setProblems(a.problems);
        setRefusedAt((n) => n + 1);
      }
      setPublishNote(`Not published: ${a.error}`);
    }
  };

  const routes = (doc.routes ?? []) as Record<string, unknown>[];
  const routeField = whole.fields.find((f) => f.pointer === '/routes');
  const current = routes[route];
  // the page being edited, when it has one path; the home page otherwise
  const previewPath = section === 'pages' && typeof current?.path === 'string' && !current.path.includes('{') ? current.path : '/';
  const blocking = placed.length > 0;
  const saved = save.kind === 'saved';

  return (
    <div className="flex flex-col gap-4" data-studio-ready={ready ? '' : undefined}>
      {props.readOnly && <p className="rounded border border-slate-400 bg-slate-100 p-2">Your role can look at this brand but not change or publish it.</p>}
      {props.fileChanged && (
        <p className="rounded border border-amber-700 bg-amber-50 p-2">
          The brand&apos;s file in brands/ changed in a deploy after this brand was last published here: the published version still applies. Compare them in
          the history before publishing again.
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={smallButton} onClick={() => step(true)} disabled={props.readOnly || !canUndo(history)}>
          Undo
        </button>
        <button type="button" className={smallButton} onClick={() => step(false)} disabled={props.readOnly || !canRedo(history)}>
          Redo
        </button>
        <p role="status" className={`text-sm ${save.kind === 'error' ? 'font-semibold text-red-800' : 'text-slate-700'}`}>
          {save.message}
        </p>
        <span className="ml-auto text-sm text-slate-700">{published ? `Published: version ${published.version}` : 'Not published from the studio yet'}</span>
        {!props.readOnly && (
          <button
            type="button"
            className="inline-flex min-h-11 items-center rounded bg-blue-800 px-4 font-semibold text-white disabled:bg-slate-500"
            onClick={publish}
            disabled={!ready || blocking || !saved || version === 0}
            aria-describedby="publish-why"
          >
            Publish
          </button>
        )}
        <a href={`/studio/${props.brandId}/history`} className="inline-flex min-h-11 items-center text-blue-800 underline">
          History
        </a>
      </div>
      {!props.readOnly && (
        <p id="publish-why" className="text-sm text-slate-700" aria-live="polite">
          {publishNote ||
            (blocking
              ? `Publishing waits until the ${placed.length === 1 ? 'problem below is' : `${placed.length} problems below are`} fixed.`
              : !saved || version === 0
                ? 'Publishing waits until the draft is saved.'
                : 'The draft has no problem: it can be published.')}
        </p>
      )}
      {conflict && (
        <section aria-labelledby="conflict-heading" className="rounded border border-amber-700 bg-amber-50 p-2">
          <h2 id="conflict-heading" className="font-bold">
            {conflict.author} saved this brand while you were editing ({new Date(conflict.savedAt).toLocaleString()})
          </h2>
          <p>Their changes are taken in, and your edits are kept on top of them:</p>
          <ul className="list-disc pl-6">
            {conflict.changes.map((c) => (
              <li key={c.pointer + c.kind}>
                {c.label}: {c.before || '(none)'} → {c.after || '(none)'}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className={smallButton}
            onClick={() => {
              setConflict(undefined);
              // the button goes with the notice: focus goes on to the part of the brand being edited, not to the page's start
              parts.current?.querySelector<HTMLButtonElement>('button[aria-pressed="true"]')?.focus();
            }}
          >
            Done reading
          </button>
        </section>
      )}
      {warnings.length > 0 && (
        <section aria-labelledby="warnings-heading" className="rounded border border-amber-700 bg-amber-50 p-2">
          <h2 id="warnings-heading" className="font-bold">
            To settle before publishing
          </h2>
          <ul className="list-disc pl-6">
            {warnings.map((w) => (
              <li key={w.pointer + w.message}>{w.message}</li>
            ))}
          </ul>
        </section>
      )}
      {placed.length > 0 && (
        <section ref={summary} tabIndex={-1} aria-labelledby="problems-heading" className="rounded border border-red-800 p-2">
          <h2 id="problems-heading" className="font-bold text-red-800">
            {placed.length === 1 ? '1 problem' : `${placed.length} problems`} to fix before publishing
          </h2>
          <ul className="list-disc pl-6">
            {placed.map((p, i) => (
              <li key={i}>
                {p.fieldId ? (
                  <a
                    href={`#${p.fieldId}`}
                    className="text-blue-800 underline"
                    onClick={(e) => {
                      e.preventDefault();
                      goTo(p);
                    }}
                  >
                    {fieldPlaceOf(doc, p.at ?? p.pointer)}: {p.message}
                  </a>
                ) : (
                  p.message
                )}
                <span className="text-sm text-slate-700"> ({p.pointer || p.file || 'the brand'})</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="min-w-0">
          <nav aria-label="Parts of the brand" ref={parts}>
            <ul className="flex flex-wrap gap-2">
              {SECTIONS.map(([id, label]) => (
                <li key={id}>
                  <button
                    type="button"
                    className={`${smallButton} ${section === id ? 'bg-blue-100 font-semibold' : ''}`}
                    aria-pressed={section === id}
                    onClick={() => setSection(id)}
                  >
                    {label}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          {section === 'settings' &&
            whole.fields
              .filter((f) => !SETTINGS_SKIP.has(String(f.path[0])))
              .map((f) => <FieldView key={f.pointer} field={f} problems={byField} readOnly={locked} actions={actions} />)}
          {(section === 'nav' || section === 'footer') &&
            whole.fields
              .filter((f) => f.path[0] === section)
              .map((f) => <FieldView key={f.pointer} field={f} problems={byField} readOnly={locked} actions={actions} />)}
          {section === 'pages' && routeField?.kind === 'array' && (
            <PagesSection
              routes={routes}
              routeField={routeField}
              route={route}
              setRoute={setRoute}
              whole={whole}
              facts={facts}
              doc={doc}
              byField={byField}
              readOnly={locked}
              actions={actions}
              apply={apply}
            />
          )}
        </div>
        <PreviewFrames api={api} brand={props.brandId} path={previewPath} version={version} readOnly={props.readOnly} />
      </div>
    </div>
  );
}

/** The pages: one route at a time (its path, layout and this page's texts), then its blocks. */
function PagesSection(props: {
  routes: Record<string, unknown>[];
  routeField: Extract<Field, { kind: 'array' }>;
  route: number;
  setRoute: (i: number) => void;
  whole: Extract<Field, { kind: 'object' }>;
  facts: ReturnType<typeof layoutFacts>;
  doc: Doc;
  byField: ReadonlyMap<string, PlacedProblem[]>;
  readOnly: boolean;
  actions: FieldActions;
  apply: (patches: Patch[], key?: string) => void;
}) {
  const { routes, route, setRoute, doc, readOnly, actions, apply } = props;
  const [newPath, setNewPath] = useState('');
  // a button that takes itself off the page (the shared layout's copy) hands the focus on to what
  // replaced it, rather than to the page's start
  const focusAfter = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (focusAfter.current === undefined) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = undefined;
  });
  const current = routes[route];
  const routeEntry = props.routeField.items[route];
  const layoutName = typeof current?.layout === 'string' ? current.layout : undefined;
  const own = layoutName && doc.layouts?.[layoutName] ? layoutName : undefined;
  const layoutField = own ? findField(props.whole, encodePointer(['layouts', own])) : undefined;
  const shared = layoutName && !own ? props.facts.get(layoutName) : undefined;
  const addRoute = () => {
    const path = newPath.trim();
    if (!path) return;
    apply([{ op: 'add', path: ['routes', routes.length], value: { path, layout: layoutName ?? 'about-us' } }]);
    setRoute(routes.length);
    setNewPath('');
  };
  const ownCopy = () => {
    if (!layoutName || !shared?.layout) return;
    const base =
      String(current?.path ?? 'page')
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'home';
    let name = `${base}-page`;
    for (let n = 2; doc.layouts?.[name] || props.facts.has(name); n++) name = `${base}-page-${n}`;
    // the copy is the brand's own: no schema path (a file's) and nothing to override
    const { $schema: _schema, overrides: _overrides, ...copy } = shared.layout as Record<string, unknown>;
    apply([...setPatch(doc, ['layouts', name], copy), { op: 'replace', path: ['routes', route, 'layout'], value: name }]);
    focusAfter.current = 'blocks-heading';
  };
  return (
    <div className="mt-3 flex flex-col gap-2">
      <label htmlFor="studio-page" className="font-semibold">
        Page
      </label>
      <select
        id="studio-page"
        className="min-h-11 rounded border border-slate-500 bg-white px-2"
        value={route}
        onChange={(e) => setRoute(Number(e.target.value))}
      >
        {routes.map((r, i) => (
          <option key={i} value={i}>
            {typeof r.path === 'string' ? r.path : `Shared routes: ${String(r.part)}`}
          </option>
        ))}
      </select>
      {!readOnly && (
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col text-sm">
            New page&apos;s path (parameters in braces: {'{state}'}, {'{city}'}, {'{loanType}'}…)
            <input
              className="min-h-11 rounded border border-slate-500 px-2"
              value={newPath}
              onChange={(e) => setNewPath(e.target.value)}
              list="route-schemes"
            />
          </label>
          <datalist id="route-schemes">
            {['/{loanType}', '/{loanType}/{state}', '/{loanType}/{stateCode}/{city}', '/location/{state}', '/guides/{slug}'].map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <button type="button" className={smallButton} onClick={addRoute}>
            Add page
          </button>
        </div>
      )}
      {routeEntry && <FieldView field={routeEntry} problems={props.byField} readOnly={readOnly} actions={actions} depth={0} />}
      {!readOnly && routes.length > 1 && (
        <button
          type="button"
          className={`${smallButton} self-start`}
          onClick={() => {
            apply([{ op: 'remove', path: ['routes', route] }]);
            setRoute(Math.max(0, route - 1));
          }}
        >
          Remove this page
        </button>
      )}
      {layoutField && (
        <section aria-labelledby="blocks-heading">
          <h2 id="blocks-heading" tabIndex={-1} className="mt-2 text-lg font-bold">
            This page&apos;s layout ({own}) and its blocks
          </h2>
          <FieldView field={layoutField} problems={props.byField} readOnly={readOnly} actions={actions} />
        </section>
      )}
      {shared && (
        <section aria-labelledby="shared-heading">
          <h2 id="shared-heading" className="mt-2 text-lg font-bold">
            Shared layout {layoutName}
          </h2>
          <p className="text-sm">
            Other pages show this layout too. Its texts for this page are above (&quot;This page&apos;s text&quot;); to add, remove or reorder its blocks on
            this page only, give the page its own copy.
          </p>
          <ol className="list-decimal pl-6">
            {shared.blocks.map((b, i) => (
              <li key={i}>{b}</li>
            ))}
          </ol>
          {!readOnly && (
            <button type="button" className={smallButton} onClick={ownCopy}>
              Give this page its own copy of the layout
            </button>
          )}
        </section>
      )}
    </div>
  );
}

function findField(field: Field, pointer: string): Field | undefined {
  for (const f of allFields(field)) if (f.pointer === pointer) return f;
  return undefined;
}
