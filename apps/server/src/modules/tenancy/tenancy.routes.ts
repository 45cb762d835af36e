import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  branchIdParamsSchema,
  branchListResponseSchema,
  branchResponseSchema,
  createBranchSchema,
  createPharmacyResponseSchema,
  createPharmacySchema,
  patchBranchSchema,
  switchBranchSchema,
  themeResponseSchema,
  themeSchema,
} from '@pharmapoint/domain/tenancy';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { createBranch, listBranches, patchBranch, switchBranch } from './branches.service.ts';
import { createOwnPharmacy, getTheme, saveTheme } from './pharmacy.service.ts';

/** Branches, the session's branch, pharmacy creation and the pharmacy theme. Contracts in packages/domain/src/tenancy.ts. */
export const registerTenancy: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/branches',
    {
      config: { access: 'tenant' },
      schema: { tags: ['branches'], summary: 'Branches the user may work in', response: { 200: branchListResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listBranches(q, ctx)),
  );

  r.post(
    '/api/branches',
    {
      config: { access: { permission: 'settings:system' }, idempotent: true },
      schema: { tags: ['branches'], summary: 'Open a branch', body: createBranchSchema, response: { 201: branchResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => createBranch(q, ctx, request.body), { status: 201 }),
  );

  r.patch(
    '/api/branches/:id',
    {
      config: { access: { permission: 'settings:system' } },
      schema: {
        tags: ['branches'],
        summary: 'Edit, close or reopen a branch, or make it the default',
        params: branchIdParamsSchema,
        body: patchBranchSchema,
        response: { 200: branchResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => patchBranch(q, ctx, request.params.id, request.body)),
  );

  r.post(
    '/api/me/branch',
    {
      config: { access: 'tenant', allowForDemo: true },
      schema: { tags: ['branches'], summary: 'Work in another branch', body: switchBranchSchema, response: { 200: branchResponseSchema } },
    },
    async (request, reply) =>
      app.inTenant(request, reply, (q, ctx) =>
        switchBranch(q, ctx, { branchId: request.body.branchId, sessionTokenHash: request.auth!.tokenHash }),
      ),
  );

  r.post(
    '/api/pharmacies',
    {
      // Demo users reach the handler so they get the specification's own message.
      config: { access: 'authenticated', allowForDemo: true },
      schema: { tags: ['pharmacies'], summary: 'Create a pharmacy on a trial', body: createPharmacySchema, response: { 201: createPharmacyResponseSchema } },
    },
    async (request, reply) =>
      app.inUser(
        request,
        reply,
        (q, user) => createOwnPharmacy(q, { userId: user.userId, sessionTokenHash: user.tokenHash, isDemo: user.isDemo }, request.body, new Date()),
        { status: 201 },
      ),
  );

  r.get(
    '/api/pharmacy/theme',
    { config: { access: 'tenant' }, schema: { tags: ['pharmacies'], summary: 'The pharmacy theme', response: { 200: themeResponseSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getTheme(q, ctx)),
  );

  r.put(
    '/api/pharmacy/theme',
    {
      config: { access: { permission: 'settings:system' } },
      schema: { tags: ['pharmacies'], summary: 'Save the pharmacy theme', body: themeSchema, response: { 200: themeResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => saveTheme(q, ctx, request.body)),
  );
};
