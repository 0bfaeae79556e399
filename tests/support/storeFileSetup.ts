/**
 * The default store of a test file is a SQLite file of its worker's, not data/loansites.sqlite.
 * With one default file for every test process, two at once (a file's and a child a test started,
 * or two workers) migrated it together and one failed ("duplicate column name"): a failure of the
 * tests' sharing, not of the code. The files of one worker run one after another, so they share its
 * file as they shared the default, migrated once. A test that names its own file or a PostgreSQL
 * store is unaffected; a child process a test starts inherits the file with the rest of the
 * environment, and reads what its test wrote.
 */
import { join } from 'node:path';

const dir = process.env.LOANSITES_UNIT_STORE_DIR;
if (dir && !process.env.LOANSITES_DB_FILE) process.env.LOANSITES_DB_FILE = join(dir, `worker-${process.env.VITEST_POOL_ID ?? process.pid}.sqlite`);
