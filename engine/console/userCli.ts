/**
 * npm run console:user -- <command>: console accounts from a terminal, non-interactively too.
 *   add --email E --role admin|analyst|viewer|buyer-manager|editor [--brands a,b] --password-stdin
 *   list
 *   remove --email E
 *   reset --email E --password-stdin        (new password; signs the user out everywhere)
 *   totp-reset --email E                    (removes the authenticator: a lost phone; signs the user out)
 * The password is read from standard input (one line; the final newline dropped), never from
 * the command line, where `ps` and shell history would show it. Every change is audited ("cli").
 * Exit status: 0 done, 1 refused (with the reason), 2 usage.
 */
import { parseArgs } from 'node:util';
import type { Store } from '../store/db';
import { addUser, audit, listUsers, normaliseEmail, resetPassword } from '../store/console';
import { removeAccount } from '../store/consoleUserAdmin';
import { resetTotp } from './totpStore';
import { hashPassword, passwordProblem } from './passwords';
import { BRAND_ID, brandList, isRole, ROLES } from './roles';

export const USAGE = `usage: npm run console:user -- add --email E --role ${ROLES.join('|')} [--brands a,b (editor)] --password-stdin
       npm run console:user -- list
       npm run console:user -- remove --email E
       npm run console:user -- reset --email E --password-stdin
       npm run console:user -- totp-reset --email E`;

export interface CliIo {
  readStdin(): Promise<string>;
  out(line: string): void;
  err(line: string): void;
  /** The brand ids the studio lists, which an editor may be limited to (the console refuses others too). */
  knownBrands?(): Promise<readonly string[]>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function runUserCli(argv: string[], db: Store, io: CliIo): Promise<number> {
  // asked for, the usage is the answer (exit 0), not "Unknown option '--help'"
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    io.out(USAGE);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { email: { type: 'string' }, role: { type: 'string' }, brands: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
    });
  } catch (err) {
    io.err(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  // an option given twice would be read as its last (parseArgs): the account changed may not be the one first typed
  const twice = ['--email', '--role', '--brands'].find((name) => argv.filter((a) => a === name || a.startsWith(`${name}=`)).length > 1);
  if (twice) {
    io.err(`${twice} is given twice; give it once\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  const { email, role } = parsed.values;
  const usage = (why: string) => (io.err(`${why}\n${USAGE}`), 2);
  if (rest.length) return usage(`Unexpected: ${rest.join(' ')}`);
  const password = async (): Promise<string | undefined> => {
    if (!parsed.values['password-stdin']) return void usage('Give the password on standard input with --password-stdin');
    const text = (await io.readStdin()).replace(/\r?\n$/, '');
    const problem = passwordProblem(text);
    if (problem) return void io.err(problem);
    return text;
  };
  const needEmail = (): string | undefined => {
    if (!email || !EMAIL.test(email.trim())) return void usage('Give the account with --email name@example.com');
    return normaliseEmail(email);
  };

  switch (command) {
    case 'list': {
      const users = await listUsers(db);
      if (!users.length) io.out('no console users yet; add the first admin with: npm run console:user -- add --email … --role admin --password-stdin');
      for (const u of users)
        io.out(`${u.email}\t${u.role}\tsince ${u.created_at.slice(0, 10)}${u.role === 'editor' ? `\t${u.brands ? `brands ${u.brands}` : 'every brand'}` : ''}`);
      return 0;
    }
    case 'add': {
      const who = needEmail();
      if (!who) return 2;
      if (!isRole(role)) return usage(`--role must be one of ${ROLES.join(', ')}`);
      // an editor may be limited to some brands in the studio (none named: every brand)
      const brands = brandList(parsed.values.brands ?? '');
      if (brands.length && role !== 'editor') return usage('--brands limits an editor to some brands; give it with --role editor');
      if (brands.some((b) => !BRAND_ID.test(b))) return usage('--brands lists brand ids (lower-case letters, digits, hyphens), comma-separated');
      // a mistyped id would leave the editor with a brand that does not exist, and no word of it
      if (brands.length && io.knownBrands) {
        const known = new Set(await io.knownBrands());
        const unknown = brands.filter((b) => !known.has(b));
        if (unknown.length)
          return usage(
            `--brands: no brand has the id ${unknown.map((b) => `"${b}"`).join(', ')}; the studio lists ${[...known].join(', ')}. Nothing was added`,
          );
      }
      const pw = await password();
      if (pw === undefined) return parsed.values['password-stdin'] ? 1 : 2;
      if (!(await addUser(db, { email: who, role, passwordHash: await hashPassword(pw), brands }))) {
        io.err(`${who} has an account already (use reset to change its password)`);
        return 1;
      }
      await audit(db, { actor: 'cli', action: 'user_added', target: who, detail: { role, ...(brands.length ? { brands } : {}) } });
      io.out(`added ${who} (${role})`);
      return 0;
    }
    case 'remove': {
      const who = needEmail();
      if (!who) return 2;
      const removed = await removeAccount(db, who);
      if (removed !== 'ok') {
        io.err(removed === 'missing' ? `${who} has no account` : `${who} is the last enabled admin: add another admin first`);
        return 1;
      }
      await audit(db, { actor: 'cli', action: 'user_removed', target: who });
      io.out(`removed ${who}`);
      return 0;
    }
    case 'reset': {
      const who = needEmail();
      if (!who) return 2;
      const pw = await password();
      if (pw === undefined) return parsed.values['password-stdin'] ? 1 : 2;
      if (!(await resetPassword(db, who, await hashPassword(pw)))) {
        io.err(`${who} has no account`);
        return 1;
      }
      await audit(db, { actor: 'cli', action: 'password_reset', target: who });
      io.out(`new password set for ${who}; their sessions were ended`);
      return 0;
    }
    case 'totp-reset': {
      const who = needEmail();
      if (!who) return 2;
      if (!(await resetTotp(db, who))) {
        io.err(`${who} has no account`);
        return 1;
      }
      await audit(db, { actor: 'cli', action: 'totp_reset', target: who });
      io.out(`two-step sign-in removed for ${who}; their sessions were ended (they sign in with the password, and set it up again)`);
      return 0;
    }
    default:
      return usage(command ? `Unknown command "${command}"` : 'Give a command');
  }
}
