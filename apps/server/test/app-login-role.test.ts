import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openPostgres, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createPharmacyWithStaff, FIXTURE_PASSWORD } from './fixtures.ts';
import { TestClient } from './http.ts';

/**
 * APP_DATABASE_URL: on a PostgreSQL server, request transactions connect as a login role that owns nothing and is
 * only a member of pharmapoint_app (docs/decisions/0009). PostgreSQL only (PGlite has a single user); CI always
 * sets TEST_DATABASE_URL, so this runs there.
 */
const url = process.env.TEST_DATABASE_URL;
const LOGIN_ROLE = 'pharmapoint_app_login';

describe.runIf(Boolean(url))('request transactions on a non-owner login role (APP_DATABASE_URL)', () => {
  const name = `pp_test_login_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let ownerUrl: URL;
  let appUrl: URL;
  let db: Database;
  let app: App;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    // Roles belong to the cluster: create it once, whoever comes first.
    await admin.query(`DO $$ BEGIN CREATE ROLE ${LOGIN_ROLE} LOGIN NOINHERIT NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
                       EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`);
    // NOINHERIT: the login role holds pharmapoint_app's rights only after SET ROLE, which every transaction does.
    await admin.query(`ALTER ROLE ${LOGIN_ROLE} NOINHERIT`);
    await admin.end();
    ownerUrl = new URL(url!);
    ownerUrl.pathname = `/${name}`;
    appUrl = new URL(ownerUrl);
    appUrl.username = LOGIN_ROLE;
    appUrl.password = '';
    const owner = await openPostgres(ownerUrl.toString(), { max: 2 });
    await migrate(owner);
    await owner.owner.query(`GRANT pharmapoint_app TO ${LOGIN_ROLE}`);
    await owner.close();
    db = await openPostgres(ownerUrl.toString(), { max: 3, appConnectionString: appUrl.toString() });
    app = await buildApp({ db, config: { ...loadConfig({}), webDist: '/nonexistent', seed: false } });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await db?.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('connects request transactions as the login role and works as pharmapoint_app', async () => {
    const [row] = await db.transaction({}, (q) => q.query<{ session_user: string; current_user: string }>('SELECT session_user, current_user'));
    expect(row).toEqual({ session_user: LOGIN_ROLE, current_user: 'pharmapoint_app' });
  });

  it('gives the login role nothing of its own: no superuser, no tables, no reads outside pharmapoint_app', async () => {
    const client = new pg.Client({ connectionString: appUrl.toString() });
    await client.connect();
    try {
      const { rows } = await client.query<{ rolsuper: boolean; rolbypassrls: boolean }>(`SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user`);
      expect(rows[0]).toEqual({ rolsuper: false, rolbypassrls: false });
      const owned = await client.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tableowner = current_user`);
      expect(owned.rows).toEqual([]);
      await expect(client.query('SELECT * FROM users')).rejects.toThrow(/permission denied/);
    } finally {
      await client.end();
    }
  });

  it('serves real requests: sign-in and a tenant route, isolated by row-level security', async () => {
    const a = await createPharmacyWithStaff(db, { id: 'login_role_a', roles: ['owner'] });
    await createPharmacyWithStaff(db, { id: 'login_role_b', roles: ['owner'], branchNames: ['Far Branch'] });
    const c = await new TestClient(app).login(a.users.owner!.email, FIXTURE_PASSWORD);
    const branches = await c.get('/api/branches');
    expect(branches.status).toBe(200);
    expect(branches.body.branches.map((b: { name: string }) => b.name).sort()).toEqual(['Main Branch', 'Second Branch']);
  });
});
