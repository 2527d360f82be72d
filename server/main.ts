import { DataDirInUseError } from './db/data-dir-lock';
import { buildApp } from './app';
import { clockOf } from './clock';
import { LISTEN_BACKLOG, readConfig } from './config';
import { migrateToLatest, openDatabase } from './db';
import { loadSellerFolder } from './catalog/loader';
import { startJobs } from './jobs';
import { readWalletFile } from './services/wallet/credentials';

/** `npm start`: open the database (PGlite in DATA_DIR, or DATABASE_URL), migrate, load the demo seller on
 *  first start, run the background jobs and serve the API and the built storefront on PORT. */
async function main() {
  const config = readConfig();
  // A wallet file that does not read is said at start, not at the first pass a visitor asks for.
  for (const file of new Set(Object.values(config.walletConfigFiles))) readWalletFile(file);
  const now = clockOf(config.pinnedClock);
  if (config.pinnedClock) console.log(`test clock: now is ${now().toISOString()} (TEST_NOW)`);
  const handle = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize } : { dataDir: config.dataDir },
  );
  await migrateToLatest(handle.db);

  const anySeller = await handle.db.selectFrom('seller').select('id').limit(1).executeTakeFirst();
  if (!anySeller) {
    const { slug } = await loadSellerFolder(handle.db, config.demoSellerDir, { now: now() });
    console.log(`loaded seller '${slug}' from ${config.demoSellerDir}`);
  }

  const deps = { db: handle.db, dbKind: handle.kind, config, now };
  const app = await buildApp(deps, {
    logger: { level: process.env.LOG_LEVEL ?? 'warn' },
  });
  // An on-sale crowd connects all at once (LISTEN_BACKLOG).
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  // The jobs (mail, renewals, expiry, reconciling) start once the server answers: a start is not held up by them.
  const jobs = startJobs(deps);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: shutting down`);
    jobs.stop();
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
  console.log(`storefront listening on http://localhost:${config.port}/ (${where})`);
}

main().catch((err) => {
  // Another process holds the embedded database: say so plainly, without a stack.
  console.error(err instanceof DataDirInUseError || /^wallet config /.test((err as Error)?.message) ? (err as Error).message : err);
  process.exit(1);
});
