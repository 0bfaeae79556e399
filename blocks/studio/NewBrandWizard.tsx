/**
 * A new brand in the browser: the questions of `npm run brand:new`, each checked by the server as
 * it is answered (POST /api/console/studio/check: the same checks, the id and hosts against every
 * brand), the colour's contrast as it is picked. The answers stay in the page whatever goes wrong
 * (a refused answer, a refused creation, the console out of reach), so a mistake costs one answer, never all of them.
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { ContrastNote, controlClass, FieldProblems } from './FieldView';
import { studioApi } from './studioApi';
import { useHydrated } from '../chrome/useHydrated';

/** A question as the server asks it (engine/site/brandQuestions.ts, the words of `npm run brand:new`), with how the studio takes its answer. */
export interface WizardQuestion {
  key: string;
  label: string;
  kind?: 'select' | 'color' | 'file';
  options?: string[];
  /** what each option is called in the list, where its value alone would not say (the country "CA" is Canada) */
  optionLabels?: Record<string, string>;
  initial?: string;
  /** the longest answer the studio takes (a longer paste is cut at the field, not refused as a whole request) */
  maxLength?: number;
  /** the question whose answer this one's check reads (the address reads the country) */
  checkedWith?: string;
}

const fieldIdOf = (key: string) => `new-${key}`;

/** Where this tab keeps the answers while the wizard is left midway. */
const KEPT = 'studio-new-brand-answers';

/** The wizard's one action: white on dark blue, also under the pointer (not the small buttons' light hover). */
const primaryButton =
  'mt-2 inline-flex min-h-11 min-w-11 items-center justify-center self-start rounded bg-blue-800 px-4 text-sm font-semibold text-white hover:bg-blue-900 disabled:opacity-50';

/** Answers the scaffold does not take, written into the new draft once it exists: the logo (uploaded) and the legal entity. */
const AFTER = new Set(['logo', 'legalName']);

const nothingToWatch = () => () => undefined;
const keptText = () => {
  try {
    return sessionStorage.getItem(KEPT) ?? '';
  } catch {
    // storage refused: the wizard starts blank, as it would without it
    return '';
  }
};

/** The text answers kept in this tab (none the page does not ask, nothing unreadable). */
function keptAnswers(text: string, questions: WizardQuestion[]): Record<string, string> {
  let kept: unknown;
  try {
    kept = JSON.parse(text || '{}');
  } catch {
    return {};
  }
  if (!kept || typeof kept !== 'object') return {};
  return Object.fromEntries(
    Object.entries(kept).filter(([k, v]) => typeof v === 'string' && questions.some((q) => q.key === k && q.kind !== 'file')),
  ) as Record<string, string>;
}

export function NewBrandWizard(props: { csrf: string; questions: WizardQuestion[] }) {
  // the server's HTML has no answers; once the page's script runs, the form starts again from the
  // answers this tab kept, so an operator who left the wizard midway finds them on coming back
  const ready = useHydrated();
  const kept = useSyncExternalStore(nothingToWatch, keptText, () => '');
  return <WizardForm key={ready ? 'kept' : 'server'} {...props} ready={ready} kept={ready ? keptAnswers(kept, props.questions) : {}} />;
}

function WizardForm(props: { csrf: string; questions: WizardQuestion[]; ready: boolean; kept: Record<string, string> }) {
  const QUESTIONS = props.questions;
  const api = useMemo(() => studioApi(props.csrf), [props.csrf]);
  const [answers, setAnswers] = useState<Record<string, string>>(() => ({
    ...Object.fromEntries(QUESTIONS.flatMap((q) => (q.initial ? [[q.key, q.initial]] : []))),
    ...props.kept,
  }));
  const [logo, setLogo] = useState<File | undefined>(undefined);
  const [messages, setMessages] = useState<Record<string, string>>({});
  // what an answer may keep but the editor should know (another draft claims a host): not a refusal
  const [warnings, setWarnings] = useState<Record<string, string>>({});
  // the answers changed since they were last checked: every one of them, not only the last one
  // typed (an answer followed within the pause by typing in the next field is checked too); the
  // kept ones are checked again as the form starts (another brand may have taken the id since)
  const unchecked = useRef(new Set<string>(Object.keys(props.kept).filter((k) => !AFTER.has(k))));
  const [note, setNote] = useState('');
  // the answers are taken once the page's script runs (until then a typed answer would not be checked)
  const ready = props.ready;

  useEffect(() => {
    if (!ready) return;
    try {
      sessionStorage.setItem(KEPT, JSON.stringify(answers));
    } catch {
      // nothing kept: leaving the page then loses the answers, as it did before they were kept
    }
  }, [answers, ready]);

  // each answer is checked as it is given (a moment after the typing stops), with the answers so far (a blank one takes its default from them)
  useEffect(() => {
    if (!unchecked.current.size) return;
    const timer = setTimeout(() => {
      const keys = [...unchecked.current];
      unchecked.current.clear();
      const scaffold = Object.fromEntries(Object.entries(answers).filter(([k]) => !AFTER.has(k)));
      for (const key of keys)
        void api.check(key, answers[key] ?? '', scaffold).then((a) => {
          if (!a.ok) return setNote(a.error);
          setMessages((m) => {
            const { [key]: _old, ...rest } = m;
            return a.value.ok ? rest : { ...rest, [key]: a.value.message ?? 'this answer cannot be used' };
          });
          setWarnings((w) => {
            const { [key]: _old, ...rest } = w;
            return a.value.warning ? { ...rest, [key]: a.value.warning } : rest;
          });
        });
    }, 300);
    return () => clearTimeout(timer);
  }, [answers, api]);

  const set = (key: string, value: string) => {
    setAnswers((a) => ({ ...a, [key]: value }));
    if (AFTER.has(key)) return;
    unchecked.current.add(key);
    // a blank answer refused for want of a default takes it from another answer (the hosts and
    // keys from the id, the progress colour from the primary one): checked again with this one
    for (const q of QUESTIONS) if (messages[q.key] && !answers[q.key]?.trim() && !AFTER.has(q.key)) unchecked.current.add(q.key);
    // an answer checked against this one (the address against the country) is checked again with it
    for (const q of QUESTIONS) if (q.checkedWith === key && answers[q.key]?.trim()) unchecked.current.add(q.key);
  };
  const shown = QUESTIONS.filter((q) => messages[q.key]);
  // a refused creation hands the keyboard (and a screen reader) to the list of what to change
  const summary = useRef<HTMLElement>(null);
  const [refusedAt, setRefusedAt] = useState(0);
  useEffect(() => {
    if (refusedAt) summary.current?.focus();
  }, [refusedAt]);

  const create = async () => {
    setNote('Creating the draft…');
    const scaffold = Object.fromEntries(Object.entries(answers).filter(([k]) => !AFTER.has(k)));
    const a = await api.create(scaffold);
    if (!a.ok) {
      const byQuestion = Object.fromEntries((a.problems ?? []).flatMap((p) => (p.question ? [[p.question, p.message]] : [])));
      setMessages(byQuestion);
      if (Object.keys(byQuestion).length) setRefusedAt((n) => n + 1);
      return setNote(`Not created yet: ${a.error}. Your answers are kept; change the ones marked and try again.`);
    }
    const id = a.value.id;
    if (logo || answers.legalName) {
      // the logo and the legal entity go into the new draft itself
      const uploaded = logo ? await api.logo(id, logo) : undefined;
      if (uploaded && !uploaded.ok) setMessages((m) => ({ ...m, logo: uploaded.error }));
      const brand = await api.brand(id);
      if (brand.ok) {
        const organization = { ...(brand.value.document.organization as Record<string, unknown>) };
        if (uploaded?.ok) organization.logo = uploaded.value.src;
        if (answers.legalName) organization.legalName = answers.legalName;
        await api.saveDraft(id, { ...brand.value.document, organization }, brand.value.version);
      }
      if (uploaded && !uploaded.ok) return setNote(`The draft brand ${id} is made, but its logo was refused: ${uploaded.error}. Upload another in the editor.`);
    }
    try {
      sessionStorage.removeItem(KEPT);
    } catch {
      // not kept, nothing to forget
    }
    window.location.assign(`/studio/${id}`);
  };

  return (
    <form
      data-studio-ready={ready ? '' : undefined}
      className="flex max-w-2xl flex-col gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
      noValidate
    >
      {shown.length > 0 && (
        <section ref={summary} tabIndex={-1} aria-labelledby="wizard-problems" className="rounded border border-red-800 p-2">
          <h2 id="wizard-problems" className="font-bold text-red-800">
            {shown.length === 1 ? '1 answer needs' : `${shown.length} answers need`} a change
          </h2>
          <ul className="list-disc pl-6">
            {shown.map((q) => (
              <li key={q.key}>
                <a className="text-blue-800 underline" href={`#${fieldIdOf(q.key)}`}>
                  {q.label.replace(/[:(].*$/, '').trim()}: {messages[q.key]}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {QUESTIONS.map((q) => {
        const id = fieldIdOf(q.key);
        const list = messages[q.key] ? [{ pointer: `/${q.key}`, message: messages[q.key]!, fieldId: id }] : [];
        const warning = list.length ? undefined : warnings[q.key];
        const text = answers[q.key] ?? '';
        const common = {
          id,
          disabled: !ready,
          'aria-describedby': list.length ? `${id}-problems` : warning ? `${id}-warning` : undefined,
          'aria-invalid': list.length ? true : undefined,
        } as const;
        return (
          <div key={q.key} className="my-2 flex flex-col gap-1">
            <label htmlFor={id} className="font-semibold">
              {q.label}
            </label>
            {q.kind === 'select' ? (
              <select {...common} className={controlClass} value={text || q.initial} onChange={(e) => set(q.key, e.target.value)}>
                {q.options!.map((o) => (
                  <option key={o} value={o}>
                    {q.optionLabels?.[o] ?? o}
                  </option>
                ))}
              </select>
            ) : q.kind === 'file' ? (
              <input {...common} type="file" accept="image/svg+xml,image/png" className={controlClass} onChange={(e) => setLogo(e.target.files?.[0])} />
            ) : (
              <div className="flex flex-wrap items-center gap-2">
                <input
                  {...common}
                  type="text"
                  maxLength={q.maxLength}
                  className={`${controlClass} ${q.kind === 'color' ? 'max-w-40 font-mono' : ''}`}
                  value={text}
                  onChange={(e) => set(q.key, e.target.value)}
                />
                {q.kind === 'color' && (
                  <input
                    type="color"
                    aria-label={`${q.label}: pick`}
                    className="h-11 w-16 rounded border border-slate-500"
                    value={/^#[0-9a-fA-F]{6}$/.test(text) ? text : '#000000'}
                    onChange={(e) => set(q.key, e.target.value)}
                  />
                )}
              </div>
            )}
            {q.kind === 'color' && q.key === 'primaryColor' && <ContrastNote id={id} color={text} />}
            <FieldProblems id={id} list={list} />
            {warning && (
              <p id={`${id}-warning`} className="text-sm text-amber-900">
                Note: {warning}
              </p>
            )}
          </div>
        );
      })}
      <button type="submit" disabled={!ready} className={primaryButton}>
        Create the draft brand
      </button>
      <p role="status">{note}</p>
    </form>
  );
}
