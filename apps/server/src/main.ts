import { mkdirSync } from 'node:fs';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';

const config = loadConfig();
if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
// The database opens (PGlite: reading and compiling its WebAssembly, starting PostgreSQL) while the application's
// modules load (Fastify, the plugins, every route and schema): the two overlap instead of adding up (decision 0051).
const [db, { buildApp }, { seedDemoData, SEEDED_USERS_TABLE }, { createMailer }, { createMaintenance }, { startK2Simulator }, { startAtSimulator }] = await Promise.all([
  openDatabase({ databaseUrl: config.databaseUrl, appDatabaseUrl: config.appDatabaseUrl, dataDir: config.dataDir, durable: config.embeddedFsync }),
  import('./app.ts'),
  import('./db/seed.ts'),
  import('./platform/mailer.ts'),
  import('./platform/maintenance.ts'),
  import('./dev/k2-simulator.ts'),
  import('./dev/at-simulator.ts'),
]);
const applied = await migrate(db);
if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`);
let seeded = false;
if (config.seed) {
  seeded = await seedDemoData(db);
  if (seeded) console.log('Seeded the demo data.');
}
// No Kopo Kopo credentials (and not production): a local K2 simulator plays M-Pesa; its page is /dev/k2 (decision 0044).
const k2Simulator =
  config.kopokopo || (process.env.NODE_ENV === 'production' && process.env.K2_SIMULATOR !== 'true')
    ? null
    : await startK2Simulator({ port: Number(process.env.K2_SIMULATOR_PORT ?? 0) });
if (k2Simulator) config.kopokopo = k2Simulator.config(`http://${['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host}:${config.port}/webhooks/kopokopo`);
// No Africa's Talking credentials (and not production): a local SMS simulator; its page is /dev/sms.
const atSimulator =
  config.africasTalking || (process.env.NODE_ENV === 'production' && process.env.AT_SIMULATOR !== 'true')
    ? null
    : await startAtSimulator({ port: Number(process.env.AT_SIMULATOR_PORT ?? 0) });
if (atSimulator) config.africasTalking = atSimulator.config(`http://${['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host}:${config.port}`);
const mailer = createMailer({ db, config });
mailer.start();
const app = await buildApp({ db, config, mailer, logger: true });
await app.listen({ port: config.port, host: config.host });
// PGlite only (no autovacuum there): ANALYZE of changed tables every few minutes, VACUUM nightly.
const maintenance = createMaintenance(db, { log: (line) => app.log.info(line) });
maintenance.start();

console.log(`\nPharmaPoint is running at ${config.publicUrl} (started in ${process.uptime().toFixed(1)} s)`);
console.log(`Listening on ${config.host}:${config.port}${config.host === '127.0.0.1' ? ' (this machine only; HOST=0.0.0.0 to accept other machines)' : ''}`);
console.log(`Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}${config.embeddedFsync ? '' : ' (PGLITE_FSYNC=off: a power cut can lose recent commits)'}`}`);
console.log(`Email: ${mailer.smtpConfigured ? 'SMTP (SMTP_URL)' : `not configured; read it at ${config.publicUrl}/dev/mailbox`}`);
console.log(`SMS: ${atSimulator ? `local Africa's Talking simulator; read messages at ${config.publicUrl}/dev/sms` : `Africa's Talking (${config.africasTalking!.username})`}`);
console.log(`M-Pesa: ${k2Simulator ? `local Kopo Kopo simulator; approve payments at ${config.publicUrl}/dev/k2` : config.kopokopo ? `Kopo Kopo K2 at ${config.kopokopo.baseUrl}` : 'not configured (set K2_CLIENT_ID, K2_CLIENT_SECRET and K2_API_KEY)'}`);
// The sign-in table only when the demo data was just seeded (every password is in the README too).
if (seeded) console.log('\nSeeded sign-in details:\n' + SEEDED_USERS_TABLE);
else if (config.seed) console.log('Demo data: seeded earlier; sign-ins are listed in the README (every password Pharma#2026).');

async function shutdown() {
  await app.close();
  await maintenance.stop();
  await mailer.stop();
  await k2Simulator?.close();
  await atSimulator?.close();
  await db.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
