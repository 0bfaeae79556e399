/**
 * npm run brand:new — a new brand file from the shared layouts, for operators.
 *
 *   npm run brand:new                      asks for each answer (Enter keeps the [default]; a
 *                                          wrong or missing answer is asked again, with the reason)
 *   npm run brand:new -- --yes --id acme --name "Acme Loans" --loan-focus general \
 *     --hosts acmeloans.com,www.acmeloans.com --primary-color #0b5394 \
 *     --phone +1-800-555-0100 --email help@acmeloans.com --address "1 Main St, Austin, TX 78701"
 *   npm run brand:new -- --yes --country CA … --address "240 Richmond St W, Toronto, ON M5V 1V6"
 *                                          a Canadian brand (AU: an Australian one, "…, Sydney, NSW 2000")
 *
 * Writes brands/<id>.json (or --dir <folder>) after checking it with the same validator as
 * `npm run validate`, adds a placeholder logo under public/logos/ when there is none, and
 * prints the local address to preview. Refuses an existing id and invalid answers.
 */
import './check-node.cjs';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { buildCatalog, projectRoot, readSources } from '../engine/site/catalog';
import { brandFileText, placeholderLogo, scaffoldBrand, type Answers } from '../engine/site/brandScaffold';
import { checkAnswer, QUESTIONS, readAnswers } from '../engine/site/brandQuestions';
import { BLOCK_SPECS } from '../blocks/generated/specs';

class AnswerError extends Error {}

/**
 * Every answer, from the flags, else asked (one line each; standard input may be a terminal or a
 * pipe). An asked question is asked again — with the reason — until its answer passes its check,
 * a blank one included when it has no default; nothing answered so far is lost. With --yes, or
 * once the input has ended, a missing or wrong answer ends the command with the reason.
 */
async function collect(given: Partial<Record<string, string>>, interactive: boolean): Promise<Answers> {
  const a: Partial<Record<string, string>> = {};
  const rl = interactive ? createInterface({ input: process.stdin, terminal: process.stdin.isTTY === true }) : undefined;
  const lines = rl?.[Symbol.asyncIterator]();
  let ended = !lines;
  try {
    for (const q of QUESTIONS) {
      for (;;) {
        const flag = given[q.flag];
        let value = flag;
        if (value === undefined && !ended) {
          const fallback = q.fallback?.(a);
          process.stdout.write(`${q.label}${fallback ? ` [${fallback}]` : ''}: `);
          const line = await lines!.next();
          if (line.done) {
            ended = true;
            process.stdout.write('\n');
          } else value = String(line.value);
        }
        if (value === undefined && ended && !q.fallback?.(a)) throw new AnswerError(`--${q.flag} is missing: ${q.label}`);
        const r = checkAnswer(q.key, value, a);
        if (r.ok) {
          a[q.key] = r.value;
          break;
        }
        if (flag !== undefined || ended) throw new AnswerError(`--${q.flag}${r.value !== undefined ? ` "${r.value}"` : ''}: ${r.message}`);
        console.log(`  ${r.message}`);
      }
    }
  } finally {
    rl?.close();
  }
  const read = readAnswers(a);
  if ('problems' in read) throw new AnswerError(read.problems.map((p) => p.message).join('; '));
  return read.answers;
}

const USAGE = `usage: npm run brand:new                (asks each answer)
       npm run brand:new -- --yes ${QUESTIONS.map((q) => `--${q.flag} …`).join(' ')} [--dir brands] [--public-dir public]`;

/** The flags, or why they cannot be read (an option it does not have, one without its value) as an AnswerError: the reason, not a stack trace. */
function flags() {
  try {
    return parseArgs({
      options: {
        ...Object.fromEntries(QUESTIONS.map((q) => [q.flag, { type: 'string' as const }])),
        yes: { type: 'boolean' },
        dir: { type: 'string' },
        'public-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new AnswerError(`${(err as Error).message.replace(/\. To specify a positional argument.*$/s, '')}\n${USAGE}`);
  }
}

async function main(): Promise<void> {
  const { values } = flags();
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const flagValues = values as Record<string, string | boolean | undefined>;
  const given = Object.fromEntries(QUESTIONS.flatMap((q) => (typeof flagValues[q.flag] === 'string' ? [[q.flag, flagValues[q.flag]]] : []))) as Partial<
    Record<string, string>
  >;
  const dir = (values.dir as string | undefined)?.replace(/\/+$/, '') ?? 'brands';
  const root = projectRoot();
  const answers = await collect(given, !values.yes);

  const sources = readSources(dir === 'brands' ? {} : { extraDir: dir });
  const file = `${dir}/${answers.id}.json`;
  const taken = sources.brands.find((s) => s.file.replace(/^.*\//, '') === `${answers.id}.json`);
  if (taken || existsSync(join(root, file)))
    throw new AnswerError(`a brand with the id "${answers.id}" already exists (${taken?.file ?? file}); choose another id`);

  const brand = scaffoldBrand(answers);
  const text = brandFileText(brand, relative(join(root, dir), join(root, 'schemas/brand.schema.json')));
  const catalog = buildCatalog([...sources.brands, { file, text }], sources.layouts, BLOCK_SPECS);
  const problems = catalog.broken.get(answers.id);
  if (problems) throw new AnswerError(`the brand would not be valid, so nothing was written:\n${problems.map((p) => `  ${p}`).join('\n')}`);

  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, file), text);
  const logo = join(root, (values['public-dir'] as string | undefined) ?? 'public', 'logos', `${answers.id}.svg`);
  if (!existsSync(logo)) {
    mkdirSync(join(logo, '..'), { recursive: true });
    writeFileSync(logo, placeholderLogo(answers.name, answers.primaryColor));
  }
  console.log(`brand:new: wrote ${file} (valid: the same checks as npm run validate) and ${relative(root, logo)}`);
  const devCommand = dir === 'brands' ? 'npm run dev' : `LOANSITES_EXTRA_BRANDS_DIR=${dir} npm run dev`;
  console.log(`brand:new: preview with ${devCommand}, then open http://${answers.id}.localhost:3000/`);
}

main().catch((err: unknown) => {
  if (err instanceof AnswerError || (err instanceof Error && /^the address/.test(err.message))) {
    console.error(`brand:new: ${err.message}`);
    process.exit(1);
  }
  throw err;
});
