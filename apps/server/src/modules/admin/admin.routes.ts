import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminPharmacyListResponseSchema } from '@pharmapoint/domain/subscription';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { listPharmaciesForOperator } from './admin.service.ts';

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
        response: { 200: adminPharmacyListResponseSchema },
      },
    },
    // Across tenants: the owner connection, the one place it serves a request (see admin.service).
    async () => ({ pharmacies: await listPharmaciesForOperator(db.owner, new Date()) }),
  );
};
