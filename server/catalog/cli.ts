import { DataDirInUseError } from '../db/data-dir-lock';
import { migrateToLatest, openDatabase } from '../db';
import { clockOf } from '../clock';
import { readConfig } from '../config';
import { CatalogError, formatIssue } from './errors';
import { loadSellerFolderDetailed } from './loader';
import { sellerCounts } from './summary';

/**
 * `npm run seller:load -- sellers/NAME`: migrates the database named by DATABASE_URL (or the PGlite in DATA_DIR,
 * like `npm start`), loads the folder and prints a summary. A bad folder prints `file: JSON path: message`
 * for every problem and exits 1 with nothing written.
 */
async function main() {
  const dir = process.argv.slice(2).find((a) => !a.startsWith('-'));
  if (!dir) {
    console.error('usage: npm run seller:load -- sellers/NAME');
    process.exit(2);
  }
  const config = readConfig();
  const handle = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    await migrateToLatest(handle.db);
    const result = await loadSellerFolderDetailed(handle.db, dir, { now: clockOf(config.pinnedClock)() });
    const counts = await sellerCounts(handle.db, result.sellerId);
    const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
    console.log(`loaded seller '${result.slug}' (${result.sellerId}) into ${where} in ${result.elapsedMs} ms`);
    for (const [name, n] of Object.entries(counts)) console.log(`  ${name.replace(/_/g, ' ').padEnd(22)} ${n}`);
    console.log(`  ${'sessions in schedules'.padEnd(22)} ${result.sessionsPlanned}`);
  } catch (err) {
    if (err instanceof CatalogError) {
      for (const issue of err.issues) console.error(formatIssue(issue));
      console.error(`${dir}: refused (${err.issues.length} problem${err.issues.length === 1 ? '' : 's'}); nothing was written`);
      process.exitCode = 1;
    } else {
      throw err;
    }
  } finally {
    await handle.close();
  }
}

main().catch((err) => {
  // Another process holds the embedded database: say so plainly, without a stack.
  console.error(err instanceof DataDirInUseError ? err.message : err);
  process.exit(1);
});
