/**
 * One field of the studio's generated form (engine/browser/studio/schemaForm.ts) and its children:
 * a labelled control with its help, the validator's problems for it in the same words, and for a
 * list the buttons to add, remove and reorder its entries — by button, by arrow keys on the entry's
 * handle, or by dragging the handle. Every control is a native one, so the keyboard and screen
 * readers work as the browser made them; every target is at least 44 px tall on a phone.
 */
import { memo, useLayoutEffect, useRef, useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import { contrastRatio, MIN_TEXT_CONTRAST } from '../../engine/browser/colors';
import type { Patch, Path } from '../../engine/browser/studio/patches';
import type { PlacedProblem } from '../../engine/browser/studio/problemFields';
import type { Field } from '../../engine/browser/studio/schemaForm';

export const controlClass = 'min-h-11 w-full max-w-full rounded border border-slate-500 bg-white px-2 py-1 disabled:bg-slate-100 disabled:text-slate-800';
export const smallButton =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded border border-slate-600 bg-white px-2 text-sm hover:bg-slate-100 disabled:opacity-50';

export interface FieldActions {
  /** a value set at a field's path (undefined: removed); `key` merges typing into one undo step */
  set(path: Path, value: unknown, key?: string): void;
  /** patches made by a list's buttons */
  patch(patches: Patch[]): void;
  /** stores an uploaded logo and answers its address, or why it was refused */
  uploadLogo?(file: File): Promise<{ src: string } | { error: string }>;
}

/** The logo field's upload: the file is stored (an SVG cleaned first), and its address put in the field. */
function LogoUpload({ field, actions }: { field: Field; actions: FieldActions }) {
  const [note, setNote] = useState('');
  if (!actions.uploadLogo) return null;
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setNote('Uploading…');
    const answer = await actions.uploadLogo!(file);
    if ('src' in answer) {
      actions.set(field.path, answer.src);
      setNote('Uploaded.');
    } else setNote(`Not uploaded: ${answer.error}`);
  };
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={`${field.id}-upload`}>Upload a logo (SVG or PNG, at most 256 KB)</label>
      <input
        id={`${field.id}-upload`}
        type="file"
        accept="image/svg+xml,image/png"
        className={controlClass}
        onChange={(e) => void upload(e.target.files?.[0])}
      />
      <p role="status">{note}</p>
    </div>
  );
}

export interface FieldViewProps {
  field: Field;
  problems: ReadonlyMap<string, PlacedProblem[]>;
  readOnly: boolean;
  actions: FieldActions;
  /** the field's own heading level for nested lists (legend text is not a heading; this is for entries) */
  depth?: number;
}

/** The problems of one field, in the validator's words, announced with it (aria-describedby). */
export function FieldProblems({ id, list }: { id: string; list: PlacedProblem[] | undefined }) {
  if (!list?.length) return null;
  return (
    <ul id={`${id}-problems`} className="mt-1 list-none text-sm font-semibold text-red-800">
      {list.map((p, i) => (
        <li key={i}>
          <span aria-hidden="true">⚠ </span>
          {p.message}
        </li>
      ))}
    </ul>
  );
}

const describedBy = (field: Field, problems: PlacedProblem[] | undefined) =>
  [field.help || field.hint ? `${field.id}-help` : '', problems?.length ? `${field.id}-problems` : ''].filter(Boolean).join(' ') || undefined;

function Help({ field }: { field: Field }) {
  if (!field.help && !field.hint) return null;
  return (
    <p id={`${field.id}-help`} className="text-sm text-slate-700">
      {field.help}
      {field.hint && field.help ? ' ' : ''}
      {field.hint && <span className="italic">Write {field.hint}.</span>}
    </p>
  );
}

/** White text on a brand colour, as the validator measures it: said as the colour is picked. */
export function ContrastNote({ id, color }: { id: string; color: string }) {
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) return null;
  const ratio = contrastRatio(color, '#ffffff');
  const ok = ratio >= MIN_TEXT_CONTRAST;
  return (
    <p id={`${id}-contrast`} className={`text-sm ${ok ? 'text-green-900' : 'font-semibold text-red-800'}`} aria-live="polite">
      {/* a picture of the button, not text of the page: a colour too light draws it as unreadable as visitors would get it, which the sentence beside it says in words */}
      <svg
        role="img"
        aria-label={`Sample: an Apply now button, white text on ${color}`}
        width="88"
        height="24"
        viewBox="0 0 88 24"
        className="mr-1 inline-block align-middle"
      >
        <rect width="88" height="24" rx="4" fill={color} />
        <text x="44" y="16.5" textAnchor="middle" fill="#ffffff" fontSize="14">
          Apply now
        </text>
      </svg>
      {ok
        ? `White text on ${color} has a contrast of ${ratio.toFixed(1)}:1: readable.`
        : `White text on ${color} has a contrast of ${ratio.toFixed(1)}:1; it needs at least ${MIN_TEXT_CONTRAST}:1 to be readable — use a darker colour.`}
    </p>
  );
}

function Leaf({ field, problems, readOnly, actions }: FieldViewProps) {
  const list = problems.get(field.id);
  const common = {
    id: field.id,
    'aria-describedby': describedBy(field, list),
    'aria-invalid': list?.length ? true : undefined,
    disabled: readOnly,
  } as const;
  const label = (
    <label htmlFor={field.id} className="font-semibold">
      {field.label}
      {field.required ? <span className="font-normal text-slate-700"> (required)</span> : null}
    </label>
  );
  let control: ReactNode;
  switch (field.kind) {
    case 'text':
    case 'textarea': {
      const props = {
        ...common,
        value: field.value,
        className: controlClass,
        onChange: (e: { target: { value: string } }) => actions.set(field.path, e.target.value, field.pointer),
      };
      control = field.kind === 'textarea' ? <textarea rows={3} {...props} /> : <input type="text" {...props} />;
      break;
    }
    case 'color':
      control = (
        <div className="flex flex-wrap items-center gap-2">
          <input
            {...common}
            type="text"
            value={field.value}
            className={`${controlClass} max-w-40 font-mono`}
            onChange={(e) => actions.set(field.path, e.target.value, field.pointer)}
            aria-describedby={
              [describedBy(field, list), field.pointer === '/config/theme' ? `${field.id}-contrast` : ''].filter(Boolean).join(' ') || undefined
            }
          />
          <input
            type="color"
            aria-label={`${field.label}: pick`}
            value={/^#[0-9a-fA-F]{6}$/.test(field.value) ? field.value : '#000000'}
            disabled={readOnly}
            className="h-11 w-16 rounded border border-slate-500"
            onChange={(e) => actions.set(field.path, e.target.value, field.pointer)}
          />
        </div>
      );
      break;
    case 'number':
      control = (
        <input
          {...common}
          type="number"
          value={field.value ?? ''}
          min={field.min}
          max={field.max}
          step={field.integer ? 1 : 'any'}
          className={`${controlClass} max-w-40`}
          onChange={(e) => actions.set(field.path, e.target.value === '' ? undefined : Number(e.target.value), field.pointer)}
        />
      );
      break;
    case 'checkbox':
      return (
        <div className="my-2">
          <div className="flex min-h-11 items-center gap-2">
            <input
              {...common}
              type="checkbox"
              checked={field.value}
              className="h-6 w-6"
              onChange={(e) => actions.set(field.path, e.target.checked || undefined)}
            />
            <label htmlFor={field.id} className="font-semibold">
              {field.label}
            </label>
          </div>
          <Help field={field} />
          <FieldProblems id={field.id} list={list} />
        </div>
      );
    case 'select':
    case 'reference':
      if (field.kind === 'reference' && field.free) {
        control = (
          <>
            <input
              {...common}
              type="text"
              list={`${field.id}-pages`}
              value={field.value}
              className={controlClass}
              onChange={(e) => actions.set(field.path, e.target.value, field.pointer)}
            />
            <datalist id={`${field.id}-pages`}>
              {field.options.map((o) => (
                <option key={o.value} value={o.value} />
              ))}
            </datalist>
          </>
        );
      } else {
        control = (
          <select
            {...common}
            value={field.value}
            className={controlClass}
            onChange={(e) => actions.set(field.path, e.target.value === '' ? undefined : e.target.value)}
          >
            {field.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        );
      }
      break;
    default:
      return null;
  }
  return (
    <div className="my-3 flex flex-col gap-1" data-pointer={field.pointer}>
      {label}
      <Help field={field} />
      {control}
      {field.kind === 'color' && field.pointer === '/config/theme' ? <ContrastNote id={field.id} color={field.value} /> : null}
      {field.kind === 'text' && field.pointer === '/organization/logo' && !readOnly ? <LogoUpload field={field} actions={actions} /> : null}
      <FieldProblems id={field.id} list={list} />
    </div>
  );
}

/** A list or an object as a group of fields: its legend (focusable, a problem's link lands there), help and problems, then its fields. */
function Group({ field, list, children }: { field: Field; list: PlacedProblem[] | undefined; children: ReactNode }) {
  return (
    <fieldset className="my-3 rounded border border-slate-300 p-2 sm:p-3" data-pointer={field.pointer}>
      <legend id={field.id} tabIndex={-1} className="px-1 font-semibold">
        {field.label}
      </legend>
      <Help field={field} />
      <FieldProblems id={field.id} list={list} />
      {children}
    </fieldset>
  );
}

/** A list's entries, each with its handle and buttons; the handle moves its entry by arrow keys or by dragging. */
function ListView({ field, problems, readOnly, actions, depth = 0 }: FieldViewProps & { field: Extract<Field, { kind: 'array' }> }) {
  const [dragging, setDragging] = useState<number | undefined>(undefined);
  const [announce, setAnnounce] = useState('');
  // The element to focus once a move or a removal is on the page: focused as the change commits (a
  // layout effect), not at the next frame, so that an arrow key pressed right after a move lands on
  // the moved entry's handle and not on the entry that took its old place (which it would move back).
  const focusAfter = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (focusAfter.current === undefined) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = undefined;
  });
  const list = problems.get(field.id);
  const count = field.items.length;
  const move = (from: number, to: number) => {
    if (to < 0 || to >= count || from === to) return;
    actions.patch([{ op: 'move', path: [...field.path, to], from }]);
    setAnnounce(`${field.items[from]!.label} moved to position ${to + 1} of ${count}.`);
    // the handle of the moved entry keeps the focus, so arrow keys go on moving it
    focusAfter.current = `${field.id}-handle-${to}`;
  };
  const remove = (i: number) => {
    actions.patch([{ op: 'remove', path: field.items[i]!.path }]);
    setAnnounce(`${field.items[i]!.label} removed.`);
    // the removed entry's buttons go with it (the last one's from the page): focus goes to the entry
    // now in its place, or the one before, or the list's legend when none is left
    focusAfter.current = count > 1 ? `${field.id}-handle-${Math.min(i, count - 2)}` : field.id;
  };
  const onKey = (i: number) => (e: KeyboardEvent) => {
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      move(i, e.key === 'ArrowUp' ? i - 1 : i + 1);
    }
  };
  const onDrop = (i: number) => (e: DragEvent) => {
    e.preventDefault();
    if (dragging !== undefined) move(dragging, i);
    setDragging(undefined);
  };
  const [kind, setKind] = useState(field.choices?.[1]?.value ?? field.choices?.[0]?.value ?? '');
  const add = () => {
    const value = field.choices ? JSON.parse(kind) : field.newItem;
    actions.patch(count ? [{ op: 'add', path: [...field.path, count], value }] : [{ op: 'add', path: field.path, value: [value] }]);
  };
  return (
    <Group field={field} list={list}>
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
      <ol className="flex list-none flex-col gap-2">
        {field.items.map((item, i) => (
          <li
            key={item.pointer}
            className={`rounded border border-slate-200 p-2 ${dragging === i ? 'opacity-60' : ''}`}
            onDragOver={(e) => e.preventDefault()}
            onDrop={onDrop(i)}
          >
            <div className="flex flex-wrap items-center gap-1">
              <button
                type="button"
                id={`${field.id}-handle-${i}`}
                className={`${smallButton} cursor-grab`}
                draggable={!readOnly}
                disabled={readOnly}
                onDragStart={() => setDragging(i)}
                onDragEnd={() => setDragging(undefined)}
                onKeyDown={onKey(i)}
                aria-label={`Reorder ${item.label}, position ${i + 1} of ${count}: arrow keys move it`}
              >
                <span aria-hidden="true">⇅</span>
              </button>
              <span className="mr-auto font-medium">{item.label}</span>
              <button type="button" className={smallButton} disabled={readOnly || i === 0} onClick={() => move(i, i - 1)} aria-label={`Move up ${item.label}`}>
                Move up
              </button>
              <button
                type="button"
                className={smallButton}
                disabled={readOnly || i === count - 1}
                onClick={() => move(i, i + 1)}
                aria-label={`Move down ${item.label}`}
              >
                Move down
              </button>
              <button
                type="button"
                className={smallButton}
                disabled={readOnly || count <= field.minItems}
                onClick={() => remove(i)}
                aria-label={`Remove ${item.label}`}
              >
                Remove
              </button>
            </div>
            <FieldView field={item} problems={problems} readOnly={readOnly} actions={actions} depth={depth + 1} />
          </li>
        ))}
      </ol>
      {!readOnly && (field.maxItems === undefined || count < field.maxItems) && (
        <div className="mt-2 flex flex-wrap items-end gap-2">
          {field.choices && (
            <label className="flex flex-col text-sm">
              Kind of {field.itemNoun}
              <select value={kind} onChange={(e) => setKind(e.target.value)} className={`${controlClass} max-w-72`}>
                {field.choices.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
            </label>
          )}
          <button type="button" className={smallButton} onClick={add}>
            Add {field.itemNoun}
          </button>
        </div>
      )}
    </Group>
  );
}

function FieldViewOf(props: FieldViewProps) {
  const { field, problems, readOnly, actions, depth = 0 } = props;
  if (field.kind === 'array') return <ListView {...props} field={field} />;
  if (field.kind === 'object') {
    const list = problems.get(field.id);
    const inner = field.fields.map((f) => <FieldView key={f.pointer} field={f} problems={problems} readOnly={readOnly} actions={actions} depth={depth} />);
    // an entry of a list is already titled by its row; a whole object elsewhere gets its own group
    if (depth > 0 && /^\/(?:.*\/)?\d+$/.test(field.pointer)) {
      return (
        <div data-pointer={field.pointer}>
          <span id={field.id} tabIndex={-1} />
          <FieldProblems id={field.id} list={list} />
          {inner}
        </div>
      );
    }
    return (
      <Group field={field} list={list}>
        {inner}
      </Group>
    );
  }
  if (field.kind === 'choice') {
    const list = problems.get(field.id);
    return (
      <div className="my-3" data-pointer={field.pointer}>
        <label htmlFor={`${field.id}-form`} className="text-sm">
          {field.label}: written as
        </label>{' '}
        <select
          id={`${field.id}-form`}
          value={field.chosen}
          disabled={readOnly}
          className={`${controlClass} max-w-72`}
          onChange={(e) => actions.set(field.path, field.forms[Number(e.target.value)]!.empty)}
        >
          {field.forms.map((f, i) => (
            <option key={i} value={i}>
              {f.label}
            </option>
          ))}
        </select>
        <FieldProblems id={field.id} list={list} />
        <FieldView field={field.field} problems={problems} readOnly={readOnly} actions={actions} depth={depth} />
      </div>
    );
  }
  return <Leaf {...props} />;
}

/**
 * Memoised: an edit re-renders only the fields whose value it changed. The form is generated anew
 * on each edit, but a list's or an object's value is the same object until an edit touches it
 * (engine/browser/studio/patches.ts shares what it does not change), and a single field compares by what it shows.
 */
export const FieldView = memo(
  FieldViewOf,
  (a, b) => a.readOnly === b.readOnly && a.actions === b.actions && a.problems === b.problems && sameField(a.field, b.field),
);

function sameField(a: Field, b: Field): boolean {
  if (a === b) return true;
  if ('source' in a && 'source' in b) return a.source === b.source && a.pointer === b.pointer && a.label === b.label && optionsOf(a) === optionsOf(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The pickers' choices inside a container, which change when a layout or page is added elsewhere. */
const optionsCache = new WeakMap<Field, string>();
function optionsOf(field: Field): string {
  let known = optionsCache.get(field);
  if (known === undefined) {
    const out: string[] = [];
    const walk = (f: Field): void => {
      if (f.kind === 'reference' || f.kind === 'select') out.push(f.options.length + (f.options[0]?.value ?? ''));
      else if (f.kind === 'object') f.fields.forEach(walk);
      else if (f.kind === 'array') f.items.forEach(walk);
      else if (f.kind === 'choice') walk(f.field);
    };
    walk(field);
    known = out.join('|');
    optionsCache.set(field, known);
  }
  return known;
}
