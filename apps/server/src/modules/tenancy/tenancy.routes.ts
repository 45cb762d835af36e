import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ModuleRegistrar } from '../index.ts';
import { AppError } from '../../platform/errors.ts';
import { requireContext } from '../../platform/auth-plugin.ts';
import { audit } from '../audit/audit.service.ts';
import { createBranch, listBranches, patchBranch, switchBranch } from './branches.service.ts';
import { createPharmacy } from './pharmacy.service.ts';
import { DEFAULT_THEME, themeSchema, type Theme } from './theme.ts';

const idParams = z.strictObject({ id: z.uuid() });
const branchName = z.string().trim().min(1, 'Enter a branch name').max(80);
const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

const createBranchBody = z.strictObject({
  name: branchName,
  address: optionalText(200),
  phone: optionalText(20),
  isDefault: z.boolean().optional(),
});
const patchBranchBody = z.strictObject({
  name: branchName.optional(),
  address: optionalText(200),
  phone: optionalText(20),
  isActive: z.boolean().optional(),
  isDefault: z.boolean().optional(),
});

/** Branches, the session's branch, pharmacy creation and the pharmacy theme. */
export const registerTenancy: ModuleRegistrar = (app, { db }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/branches', { config: { access: 'tenant' }, schema: { tags: ['branches'], summary: 'Branches the user may work in' } }, async (request) => {
    const ctx = requireContext(request);
    return { branches: await listBranches(db, ctx, request.auth!) };
  });

  r.post(
    '/api/branches',
    { config: { access: { permission: 'settings:system' } }, schema: { tags: ['branches'], body: createBranchBody } },
    async (request, reply) => {
      const branch = await createBranch(db, requireContext(request), request.body);
      return reply.status(201).send({ branch });
    },
  );

  r.patch(
    '/api/branches/:id',
    { config: { access: { permission: 'settings:system' } }, schema: { tags: ['branches'], params: idParams, body: patchBranchBody } },
    async (request) => ({ branch: await patchBranch(db, requireContext(request), request.params.id, request.body) }),
  );

  r.post(
    '/api/me/branch',
    { config: { access: 'tenant', allowForDemo: true }, schema: { tags: ['branches'], body: z.strictObject({ branchId: z.uuid() }) } },
    async (request) => ({ branch: await switchBranch(db, request.auth!, requireContext(request), request.body.branchId) }),
  );

  r.post(
    '/api/pharmacies',
    {
      // Demo users reach the handler so they get the specification's own message.
      config: { access: 'authenticated', allowForDemo: true },
      schema: { tags: ['pharmacies'], body: z.strictObject({ name: z.string().trim().min(1, 'Enter the pharmacy name').max(120) }) },
    },
    async (request, reply) => {
      const auth = request.auth!;
      if (auth.isDemo) throw new AppError('DEMO_CANNOT_CREATE_PHARMACY');
      const created = await db.transaction({ userId: auth.userId }, async (q) => {
        const result = await createPharmacy(q, { name: request.body.name, ownerUserId: auth.userId, plan: 'trial', now: new Date() });
        // The creator starts working in the new pharmacy at once.
        await q.query(`UPDATE sessions SET pharmacy_id = $2, branch_id = $3 WHERE token_hash = $1`, [
          auth.tokenHash,
          result.pharmacyId,
          result.branches[0]?.id ?? null,
        ]);
        await audit(q, { pharmacyId: result.pharmacyId, userId: auth.userId }, 'create', 'pharmacy', result.pharmacyId, null, {
          name: request.body.name,
        });
        return result;
      });
      return reply.status(201).send({ pharmacy: { id: created.pharmacyId, name: request.body.name }, branches: created.branches });
    },
  );

  r.get('/api/pharmacy/theme', { config: { access: 'tenant' }, schema: { tags: ['pharmacies'] } }, async (request) => {
    const ctx = requireContext(request);
    const [row] = await db.transaction({ pharmacyId: ctx.pharmacyId }, (q) =>
      q.query<{ theme: Partial<Theme> }>(`SELECT theme FROM pharmacies WHERE id = $1`, [ctx.pharmacyId]),
    );
    if (!row) throw new AppError('PHARMACY_NOT_FOUND');
    return { theme: { ...DEFAULT_THEME, ...row.theme } };
  });

  r.put(
    '/api/pharmacy/theme',
    { config: { access: { permission: 'settings:system' } }, schema: { tags: ['pharmacies'], body: themeSchema } },
    async (request) => {
      const ctx = requireContext(request);
      const theme = request.body;
      await db.transaction({ pharmacyId: ctx.pharmacyId, userId: ctx.userId }, async (q) => {
        const [before] = await q.query<{ theme: unknown }>(`SELECT theme FROM pharmacies WHERE id = $1 FOR UPDATE`, [ctx.pharmacyId]);
        if (!before) throw new AppError('PHARMACY_NOT_FOUND');
        await q.query(`UPDATE pharmacies SET theme = $2, updated_at = now() WHERE id = $1`, [ctx.pharmacyId, JSON.stringify(theme)]);
        await audit(q, ctx, 'update', 'theme', ctx.pharmacyId, before.theme, theme);
      });
      return { theme: { ...DEFAULT_THEME, ...theme } };
    },
  );
};
