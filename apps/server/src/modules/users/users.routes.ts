import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, TENANT_PERMISSIONS, type Permission } from '@pharmapoint/domain/permissions';
import type { ModuleRegistrar } from '../index.ts';
import { requireContext } from '../../platform/auth-plugin.ts';
import { inviteMember, listMembers, patchMember, resendInvite } from './users.service.ts';

const idParams = z.strictObject({ id: z.uuid() });
const name = z.string().trim().min(1, 'Enter a name').max(120);
// An explicit permission list (null = the role's defaults), from the tenant catalogue only.
const permissions = z.array(z.enum(TENANT_PERMISSIONS as [Permission, ...Permission[]])).max(200).nullable();
const allowedBranchIds = z.array(z.uuid()).max(100).nullable();

const inviteBody = z.strictObject({
  email: z.email('Enter a valid email address').max(254),
  name,
  role: z.enum(STAFF_ROLES),
  permissions: permissions.optional(),
  allowedBranchIds: allowedBranchIds.optional(),
  hasPosAccess: z.boolean(),
});

const patchBody = z.strictObject({
  name: name.optional(),
  role: z.enum(STAFF_ROLES).optional(),
  permissions: permissions.optional(),
  allowedBranchIds: allowedBranchIds.optional(),
  hasPosAccess: z.boolean().optional(),
  isActive: z.boolean().optional(),
});

/** Users and staff of the pharmacy: list, invite, resend an invitation, edit and deactivate. */
export const registerUsers: ModuleRegistrar = (app, deps) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/users', { config: { access: { permission: 'user:read' } }, schema: { tags: ['users'] } }, async (request) => ({
    users: await listMembers(deps.db, requireContext(request)),
  }));

  r.post(
    '/api/users/invite',
    { config: { access: { permission: 'user:create' } }, schema: { tags: ['users'], body: inviteBody } },
    async (request, reply) => {
      const user = await inviteMember(deps, requireContext(request), request.body);
      return reply.status(201).send({ user, message: `Invitation sent to ${user.email}` });
    },
  );

  r.post(
    '/api/users/:id/resend-invite',
    { config: { access: { permission: 'user:create' } }, schema: { tags: ['users'], params: idParams } },
    async (request) => {
      const user = await resendInvite(deps, requireContext(request), request.params.id);
      return { user, message: `Invitation sent to ${user.email}` };
    },
  );

  r.patch(
    '/api/users/:id',
    { config: { access: { permission: 'user:update' } }, schema: { tags: ['users'], params: idParams, body: patchBody } },
    async (request) => ({ user: await patchMember(deps.db, requireContext(request), request.params.id, request.body) }),
  );
};
