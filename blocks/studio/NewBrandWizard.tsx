/**
 * A new brand in the browser: the questions of `npm run brand:new`, each checked by the server as
 * it is answered (POST /api/console/studio/check: the same checks, the id and hosts against every
 * brand), the colour's contrast as it is picked. The answers stay in the page whatever goes wrong
 * (a refused answer, a refused creation, the console out of reach), so a mistake costs one answer, never all of them.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Problem } from '../../engine/browser/studio/problemFields';
import { ContrastNote, controlClass, FieldProblems, smallButton } from './FieldView';
import { studioApi } from './studioApi';

/** A question as the server asks it (engine/site/brandQuestions.ts, the words of `npm run brand:new`), with how the studio takes its answer. */
export interface WizardQuestion {
  key: string;
  label: string;
  kind?: 'select' | 'color' | 'file';
  options?: string[];
  initial?: string;
}

/** A check's problem: by the question's key, or by the pointer of the field it concerns. */
type WizardProblem = Problem & { question?: string };
const keyOf = (p: WizardProblem) => p.question ?? p.pointer.split('/')[1] ?? '';

const fieldIdOf = (key: string) => `new-${key}`;

export function NewBrandWizard(props: { csrf: string; questions: WizardQuestion[] }) {
  const QUESTIONS = props.questions;
  const api = useMemo(() => studioApi(props.csrf), [props.csrf]);
  const [answers, setAnswers] = useState<Record<string, unknown>>(() => Object.fromEntries(QUESTIONS.flatMap((q) => (q.initial ? [[q.key, q.initial]] : []))));
  const [problems, setProblems] = useState<WizardProblem[]>([]);
  const [answered, setAnswered] = useState<Set<string>>(new Set());
  const [note, setNote] = useState('');
  // each answer is checked as it is given (a moment after the typing stops), with the others given so far
  useEffect(() => {
    if (!answered.size) return;
    const timer = setTimeout(async () => {
      const a = await api.check(answers);
      if (a.ok) setProblems(a.value.problems);
      else setNote(a.error);
    }, 300);
    return () => clearTimeout(timer);
  }, [answers, answered, api]);

  const set = (key: string, value: unknown) => {
    setAnswers((a) => ({ ...a, [key]: value }));
    setAnswered((s) => (s.has(key) ? s : new Set([...s, key])));
  };
  const mine = (key: string) => problems.filter((p) => answered.has(key) && keyOf(p) === key);
  const shown = problems.filter((p) => answered.has(keyOf(p)));

  const readLogo = (file: File | undefined) => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => set('logo', { name: file.name, type: file.type, data: String(reader.result).replace(/^data:[^,]*,/, '') });
    reader.readAsDataURL(file);
  };

  const create = async () => {
    setAnswered(new Set(QUESTIONS.map((q) => q.key)));
    setNote('Creating the draft…');
    const a = await api.create(answers);
    if (a.ok) {
      window.location.assign(`/studio/${a.value.id}`);
    } else {
      if (a.problems) setProblems(a.problems);
      setNote(`Not created yet: ${a.error}. Your answers are kept; fix the ones marked and try again.`);
    }
  };

  return (
    <form
      className="flex max-w-2xl flex-col gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
      noValidate
    >
      {shown.length > 0 && (
        <section aria-labelledby="wizard-problems" className="rounded border border-red-800 p-2">
          <h2 id="wizard-problems" className="font-bold text-red-800">
            {shown.length === 1 ? '1 answer needs' : `${shown.length} answers need`} a change
          </h2>
          <ul className="list-disc pl-6">
            {shown.map((p, i) => (
              <li key={i}>
                <a className="text-blue-800 underline" href={`#${fieldIdOf(keyOf(p))}`}>
                  {p.message}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {QUESTIONS.map((q) => {
        const id = fieldIdOf(q.key);
        const list = mine(q.key).map((p) => ({ ...p, fieldId: id }));
        const value = answers[q.key];
        const text = typeof value === 'string' ? value : '';
        const common = { id, 'aria-describedby': list.length ? `${id}-problems` : undefined, 'aria-invalid': list.length ? true : undefined } as const;
        return (
          <div key={q.key} className="my-2 flex flex-col gap-1">
            <label htmlFor={id} className="font-semibold">
              {q.label}
            </label>
            {q.kind === 'select' ? (
              <select {...common} className={controlClass} value={text || q.initial} onChange={(e) => set(q.key, e.target.value)}>
                {q.options!.map((o) => (
                  <option key={o}>{o}</option>
                ))}
              </select>
            ) : q.kind === 'file' ? (
              <input {...common} type="file" accept="image/svg+xml,image/png" className={controlClass} onChange={(e) => readLogo(e.target.files?.[0])} />
            ) : (
              <div className="flex flex-wrap items-center gap-2">
                <input
                  {...common}
                  type="text"
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
          </div>
        );
      })}
      <button type="submit" className={`${smallButton} mt-2 self-start bg-blue-800 font-semibold text-white`}>
        Create the draft brand
      </button>
      <p role="status">{note}</p>
    </form>
  );
}
