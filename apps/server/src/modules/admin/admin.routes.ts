import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ModuleRegistrar } from '../index.ts';
import { usageSchema } from '../subscription/subscription.routes.ts';
import { listPharmaciesForOperator } from './admin.service.ts';

const limit = z.number().int().min(-1);

const adminPharmacySchema = z.object({
  id: z.string(),
  name: z.string(),
  isDemo: z.boolean(),
  ownerEmail: z.string().nullable(),
  createdAt: z.iso.datetime(),
  plan: z.enum(['trial', 'standard']).nullable(),
  subscription: z.object({
    status: z.enum(['trial', 'active', 'expired', 'inactive', 'none']),
    storedStatus: z.enum(['trial', 'active', 'inactive']).nullable(),
    statusMessage: z.string(),
    systemActive: z.boolean(),
    trialEndDate: z.iso.datetime().nullable(),
    hostingPaidUntil: z.iso.datetime().nullable(),
    limits: z.object({ maxProducts: limit, maxTransactions: limit, maxUsers: limit, maxBranches: limit }).nullable(),
  }),
  usage: usageSchema,
});

/** The platform operator's admin area (seed 000 section 2, /app/admin): read-only views across pharmacies. */
export const registerAdmin: ModuleRegistrar = (app, { db }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/pharmacies',
    {
      config: { access: 'operator' },
      schema: {
        tags: ['admin'],
        summary: 'Every pharmacy with its plan, subscription state and usage (platform operators only)',
        response: { 200: z.object({ pharmacies: z.array(adminPharmacySchema) }) },
      },
    },
    async () => ({ pharmacies: await listPharmaciesForOperator(db) }),
  );
};
