/**
 * The sale bench's process (sale.ts saleRows): started as the server is, so its memory is the
 * server's: what server.mjs imports first (the process settings it re-executes itself with) is
 * imported first here too. Prints the rows as one line of JSON.
 */
import '../../engine/process/boundYoungGeneration.mjs';
import { ROWS_PREFIX, saleRowsHere } from './sale';

const rows = await saleRowsHere();
process.stdout.write(`${ROWS_PREFIX}${JSON.stringify(rows)}\n`);
process.exit(0);
