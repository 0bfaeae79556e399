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

interface Question {
  key: string;
  label: string;
  help: string;
  kind?: 'select' | 'color' | 'file';
  options?: string[];
  initial?: string;
}

const QUESTIONS: Question[] = [
  { key: 'name', label: 'Brand name', help: 'The name visitors see, e.g. Acme Loans (2 to 60 characters).' },
  {
    key: 'id',
    label: 'Brand id',
    help: "The brand's key: lowercase letters, digits and hyphens, e.g. acmeloans. It is also its local address {id}.localhost.",
  },
  {
    key: 'hosts',
    label: 'Host names',
    help: 'Production host names, separated by commas, e.g. acmeloans.com, www.acmeloans.com. dev. and test123. hosts are added for you.',
  },
  {
    key: 'product',
    label: 'Kind of loans',
    help: 'What the brand is about.',
    kind: 'select',
    options: ['general', 'payday', 'installment', 'title', 'personal', 'bad-credit'],
    initial: 'general',
  },
  { key: 'country', label: 'Country', help: 'New brands from the shared layouts are US brands.', kind: 'select', options: ['US'], initial: 'US' },
  {
    key: 'theme',
    label: 'Brand colour',
    help: 'Buttons use white text on it, so it must be dark enough to read (#rrggbb).',
    kind: 'color',
    initial: '#0b5394',
  },
  { key: 'progressColor', label: 'Progress bar colour', help: 'The bar shown while a page loads (#rrggbb).', kind: 'color', initial: '#0b5394' },
  {
    key: 'logo',
    label: 'Logo',
    help: 'An SVG or PNG file of at most 200 KB; an SVG is cleaned of scripts and outside references before it is stored.',
    kind: 'file',
  },
  { key: 'phone', label: 'Contact phone', help: 'e.g. +1-800-555-0100' },
  { key: 'email', label: 'Contact email', help: 'e.g. help@acmeloans.com' },
  { key: 'address', label: 'Postal address', help: 'Street, city, state and ZIP code, e.g. 1 Main St, Austin, TX 78701' },
  { key: 'legalName', label: 'Legal entity', help: 'The company that operates the brand, e.g. Acme Loans LLC.' },
];

const fieldIdOf = (key: string) => `new-${key}`;

export function NewBrandWizard(props: { csrf: string }) {
  const api = useMemo(() => studioApi(props.csrf), [props.csrf]);
  const [answers, setAnswers] = useState<Record<string, unknown>>(() => Object.fromEntries(QUESTIONS.flatMap((q) => (q.initial ? [[q.key, q.initial]] : []))));
  const [problems, setProblems] = useState<Problem[]>([]);
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
  const mine = (key: string) => problems.filter((p) => answered.has(key) && (p.pointer === `/${key}` || p.pointer.startsWith(`/${key}/`)));
  const shown = problems.filter((p) => answered.has(p.pointer.split('/')[1] ?? ''));

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
                <a className="text-blue-800 underline" href={`#${fieldIdOf(p.pointer.split('/')[1] ?? '')}`}>
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
        const common = { id, 'aria-describedby': `${id}-help${list.length ? ` ${id}-problems` : ''}`, 'aria-invalid': list.length ? true : undefined } as const;
        return (
          <div key={q.key} className="my-2 flex flex-col gap-1">
            <label htmlFor={id} className="font-semibold">
              {q.label}
            </label>
            <p id={`${id}-help`} className="text-sm text-slate-700">
              {q.help}
            </p>
            {q.kind === 'select' ? (
              <select {...common} className={controlClass} value={text} onChange={(e) => set(q.key, e.target.value)}>
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
            {q.key === 'theme' && <ContrastNote id={id} color={text} />}
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
