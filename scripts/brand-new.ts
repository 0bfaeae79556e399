/**
 * npm run brand:new — a new brand file from the shared layouts, for operators.
 *
 *   npm run brand:new                      asks for each answer (Enter keeps the [default])
 *   npm run brand:new -- --yes --id acme --name "Acme Loans" --loan-focus general \
 *     --hosts acmeloans.com,www.acmeloans.com --primary-color #0b5394 \
 *     --phone +1-800-555-0100 --email help@acmeloans.com --address "1 Main St, Austin, TX 78701"
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
import { brandFileText, readUsAddress, placeholderLogo, PRODUCTS, scaffoldBrand, type Answers, type Product } from './brandScaffold';

const FLAGS = {
  id: 'The brand key: lowercase letters, digits, hyphens (also its local host {id}.localhost)',
  name: 'The brand name visitors see',
  country: 'Country (US; Canadian and Australian brands start from brands/weloans.json or brands/fastloansau.json)',
  'loan-focus': `Loan focus (${PRODUCTS.join(', ')})`,
  hosts: 'Production host names, comma-separated',
  'primary-color': 'Primary colour, #rrggbb (buttons: dark enough for white text)',
  'progress-color': 'Progress bar colour, #rrggbb',
  phone: 'Contact phone',
  email: 'Contact email',
  address: 'Postal address: street, city, state (code or name) and ZIP code',
  'map-key': 'Maps access token (public; only used with GEOCODER=mapbox)',
  'site-key': 'Captcha site key (public)',
} as const;
type Flag = keyof typeof FLAGS;

class AnswerError extends Error {}

/** Each answer's own check, in words an operator understands; undefined when fine. */
const CHECKS: Record<Flag, (v: string) => string | undefined> = {
  id: (v) =>
    /^[a-z0-9][a-z0-9-]{1,40}$/.test(v) ? undefined : 'use 2-41 lowercase letters, digits or hyphens, starting with a letter or digit, e.g. acmeloans',
  name: (v) => (v.length >= 2 && v.length <= 60 ? undefined : 'use 2 to 60 characters'),
  country: (v) =>
    v === 'US'
      ? undefined
      : 'only US brands can be made from the shared layouts (their legal pages and application form are for the US); copy brands/weloans.json (CA) or brands/fastloansau.json (AU) instead',
  'loan-focus': (v) => ((PRODUCTS as readonly string[]).includes(v) ? undefined : `use one of ${PRODUCTS.join(', ')}`),
  hosts: (v) =>
    v.split(',').every((h) => /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(h.trim()))
      ? undefined
      : 'list host names such as acmeloans.com,www.acmeloans.com (lowercase, no https:// or path)',
  'primary-color': (v) => (/^#[0-9a-fA-F]{6}$/.test(v) ? undefined : 'write a colour as #rrggbb, e.g. #0b5394'),
  'progress-color': (v) => (/^#[0-9a-fA-F]{6}$/.test(v) ? undefined : 'write a colour as #rrggbb, e.g. #38bdf8'),
  phone: (v) => (/^\+?[0-9 ()-]{7,20}$/.test(v) ? undefined : 'write a phone number such as +1-800-555-0100'),
  email: (v) => (/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/.test(v) ? undefined : 'write an email address such as help@acmeloans.com'),
  address: (v) => {
    const read = readUsAddress(v);
    return 'problem' in read ? read.problem : undefined;
  },
  'map-key': (v) => (v.length ? undefined : 'give a token, or keep the placeholder until you have one'),
  'site-key': (v) => (v.length ? undefined : 'give a key, or keep the placeholder until you have one'),
};

const defaults = (a: Partial<Record<Flag, string>>): Partial<Record<Flag, string>> => ({
  country: 'US',
  'loan-focus': 'general',
  ...(a.id ? { hosts: `${a.id}.com,www.${a.id}.com` } : {}),
  ...(a['primary-color'] ? { 'progress-color': a['primary-color'] } : {}),
  ...(a.id ? { 'map-key': `pk.${a.id}-public-token`, 'site-key': `6Lc-${a.id}-site-key` } : {}),
});

async function collect(given: Partial<Record<Flag, string>>, interactive: boolean): Promise<Answers> {
  const a: Partial<Record<Flag, string>> = { ...given };
  const rl = interactive ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
  try {
    for (const flag of Object.keys(FLAGS) as Flag[]) {
      for (;;) {
        const fallback = defaults(a)[flag];
        if (a[flag] === undefined && rl) a[flag] = (await rl.question(`${FLAGS[flag]}${fallback ? ` [${fallback}]` : ''}: `)).trim() || fallback;
        a[flag] ??= fallback;
        if (a[flag] === undefined) throw new AnswerError(`--${flag} is missing: ${FLAGS[flag]}`);
        const problem = CHECKS[flag](a[flag]!);
        if (!problem) break;
        if (!rl || given[flag] !== undefined) throw new AnswerError(`--${flag} "${a[flag]}": ${problem}`);
        console.log(`  ${problem}`);
        a[flag] = undefined;
      }
    }
  } finally {
    rl?.close();
  }
  return {
    id: a.id!,
    name: a.name!,
    country: a.country!,
    product: a['loan-focus'] as Product,
    hosts: a.hosts!.split(',').map((h) => h.trim()),
    primaryColor: a['primary-color']!,
    progressColor: a['progress-color']!,
    phone: a.phone!,
    email: a.email!,
    address: a.address!,
    mapKey: a['map-key']!,
    siteKey: a['site-key']!,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ...Object.fromEntries(Object.keys(FLAGS).map((f) => [f, { type: 'string' as const }])),
      yes: { type: 'boolean' },
      dir: { type: 'string' },
      'public-dir': { type: 'string' },
    },
  });
  const flagValues = values as Record<string, string | boolean | undefined>;
  const given = Object.fromEntries(Object.keys(FLAGS).flatMap((f) => (typeof flagValues[f] === 'string' ? [[f, flagValues[f]]] : []))) as Partial<
    Record<Flag, string>
  >;
  const dir = (values.dir as string | undefined)?.replace(/\/+$/, '') ?? 'brands';
  const root = projectRoot();
  const answers = await collect(given, !values.yes && process.stdin.isTTY === true);

  const sources = readSources(dir === 'brands' ? {} : { extraDir: dir });
  const file = `${dir}/${answers.id}.json`;
  const taken = sources.brands.find((s) => s.file.replace(/^.*\//, '') === `${answers.id}.json`);
  if (taken || existsSync(join(root, file)))
    throw new AnswerError(`a brand with the id "${answers.id}" already exists (${taken?.file ?? file}); choose another id`);

  const brand = scaffoldBrand(answers);
  const text = brandFileText(brand, relative(join(root, dir), join(root, 'schemas/brand.schema.json')));
  const catalog = buildCatalog([...sources.brands, { file, text }], sources.layouts);
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
