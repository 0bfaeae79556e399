/** The studio's new-brand questions (blocks/studio/NewBrandWizard.tsx), for a role that may edit brands (any other: 403, "Not for your role"). */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout } from '../../../blocks/console/ConsoleLayout';
import { NewBrandWizard, type WizardQuestion } from '../../../blocks/studio/NewBrandWizard';
import { ANSWER_LIMIT, QUESTIONS } from '../../../engine/site/brandQuestions';
import { COUNTRIES, COUNTRY_NAMES, PRODUCTS } from '../../../engine/site/brandScaffold';
import { consolePage, type ConsoleProps } from '../../../engine/console/pages';

type Props = ConsoleProps<{ questions: WizardQuestion[] }>;

/** How the studio asks each of brand:new's questions: a list where the answers are few, a colour picker for a colour. */
const KINDS: Record<string, Pick<WizardQuestion, 'kind' | 'options' | 'optionLabels' | 'initial'>> = {
  country: {
    kind: 'select',
    options: [...COUNTRIES],
    optionLabels: Object.fromEntries(COUNTRIES.map((c) => [c, `${c} (${COUNTRY_NAMES[c]})`])),
    initial: 'US',
  },
  kind: { kind: 'select', options: [...PRODUCTS], initial: 'general' },
  primaryColor: { kind: 'color', initial: '#0b5394' },
  progressColor: { kind: 'color', initial: '#0b5394' },
};

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'studio.edit', async () => ({
    questions: [
      // a paste longer than the studio takes is cut at the field, where the question's own check then speaks
      ...QUESTIONS.map((q) => ({
        key: q.key,
        label: q.label,
        maxLength: ANSWER_LIMIT,
        ...(q.checkedWith ? { checkedWith: q.checkedWith } : {}),
        ...KINDS[q.key],
      })),
      { key: 'logo', label: 'Logo: an SVG or PNG file (an SVG is cleaned of scripts and outside references before it is stored)', kind: 'file' as const },
      { key: 'legalName', label: 'Legal entity: the company that operates the brand, e.g. Acme Loans LLC', maxLength: ANSWER_LIMIT },
    ],
  }));

export default function NewBrandPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Launch a new brand" viewer={props.viewer} forbidden />;
  return (
    <ConsoleLayout title="Launch a new brand" viewer={props.viewer} current="/studio">
      <NewBrandWizard csrf={props.viewer.csrf} questions={props.questions} />
    </ConsoleLayout>
  );
}
