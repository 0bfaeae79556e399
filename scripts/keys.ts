/**
 * npm run keys [-- --force] — makes the RSA 3072 key pair for the encrypted form trace:
 * data/keys/form-trace.key (private, mode 600) and data/keys/form-trace.pub. Refuses to
 * replace an existing key unless --force (traces sealed with the old key become unreadable).
 *
 * npm run keys -- rotate — re-seals every stored lead field and form trace with the current lead
 * key (the first of LEADS_ENCRYPTION_KEYS), so the older keys listed after it can be dropped — except
 * those that signed consent certificates still kept, which it names (engine/leads/rotation.ts).
 */
import './check-node.cjs';
import { relative } from 'node:path';
import {
  FORM_TRACE_RSA_BITS,
  PRIVATE_KEY_ENV,
  PUBLIC_KEY_ENV,
  defaultKeyDir,
  generateFormTraceKeyPair,
  writeFormTraceKeyPair,
} from '../engine/keys/formTraceKeys';
import { certificatesSignedByOlderKeys, olderKeysAdvice, resealAll } from '../engine/leads/rotation';
import { requireLeadKey } from '../engine/keys/sealing';
import { closeStore, getStore, storeKindOf, storeLocation } from '../engine/store/db';
import { checkArgs } from './cliFormat';

const HELP = `npm run keys [-- --force]   makes the form-trace key pair in data/keys/ (--force replaces one that exists)
npm run keys -- rotate      re-seals the stored leads and form traces with the current lead key (the first of LEADS_ENCRYPTION_KEYS)`;
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
// both commands write (a key pair, or every sealed row): a word or option they do not read stops here
try {
  checkArgs(args, { values: [], flags: ['--force', '--help', '-h'], words: 1 });
  const word = args.find((a) => !a.startsWith('-'));
  if (word !== undefined && word !== 'rotate') throw new Error(`"${word}" is not a command (the command is rotate)`);
  if (word && args.includes('--force')) throw new Error('--force is for making the key pair, not for rotate');
} catch (err) {
  console.error(`keys: ${(err as Error).message}; nothing was written.\n${HELP}`);
  process.exit(2);
}

if (process.argv.includes('rotate')) {
  try {
    const ring = requireLeadKey();
    const report = await resealAll(await getStore(), ring);
    console.log(
      `keys: re-sealed ${report.leads} lead(s) and ${report.formTraces} form trace(s) with lead key ${ring.current.id} (and ${report.certificates} consent certificate(s)) in the ${storeKindOf()} store at ${storeLocation()}.`,
    );
    if (report.unopened.length) {
      console.error(`keys: ${report.unopened.length} row(s) open with none of the configured keys and were left as they are:`);
      for (const line of report.unopened.slice(0, 20)) console.error(`  ${line}`);
      process.exitCode = 1;
    } else console.log(olderKeysAdvice(await certificatesSignedByOlderKeys(await getStore(), ring, new Date())));
  } catch (err) {
    console.error(`keys: ${(err as Error).message}`);
    process.exitCode = 1;
  } finally {
    await closeStore();
  }
  process.exit();
}

const force = process.argv.includes('--force');
const { written, privateKeyPath, publicKeyPath } = writeFormTraceKeyPair(defaultKeyDir(), generateFormTraceKeyPair(), { force });
const [priv, pub] = [privateKeyPath, publicKeyPath].map((p) => relative(process.cwd(), p));

if (!written) {
  console.error(`keys: ${priv} already exists; nothing written. Traces sealed with it can only be read with it.`);
  console.error('keys: to replace it anyway: npm run keys -- --force');
  process.exit(1);
}
console.log(`keys: wrote ${priv} (private, mode 600) and ${pub} (public), RSA ${FORM_TRACE_RSA_BITS}.`);
console.log('keys: development servers read these files. In production, keep the private key in your secret store and set:');
console.log(`  ${PRIVATE_KEY_ENV}  on the servers that receive POST /api/trace (they derive the public key from it)`);
console.log(`  ${PUBLIC_KEY_ENV}   where pages are rendered, if those servers do not hold the private key`);
console.log("keys: the values are the PEM files' text; as one line with \\n escapes (.env files, compose):");
console.log(`  ${PRIVATE_KEY_ENV}="$(awk '{printf "%s\\\\n", $0}' ${priv})"`);
console.log(`  ${PUBLIC_KEY_ENV}="$(awk '{printf "%s\\\\n", $0}' ${pub})"`);
