import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  invitationResponseSchema,
  inviteMemberSchema,
  memberListResponseSchema,
  memberResponseSchema,
  patchMemberSchema,
  userIdParamsSchema,
} from '@pharmapoint/domain/users';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { inviteMember, listMembers, patchMember, resendInvite, type InviteMail } from './users.service.ts';

/** Users and staff of the pharmacy: list, invite, resend an invitation, edit and deactivate. Contracts in packages/domain/src/users.ts. */
export const registerUsers: ModuleRegistrar = (app, { config, mailer }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const mail: InviteMail = { mailer, publicUrl: config.publicUrl };
  /** The invitation email was queued in the committed transaction: send it now rather than at the next tick. */
  const sendNow = <T>(result: T): T => {
    void mailer.flush().catch(() => undefined);
    return result;
  };

  r.get(
    '/api/users',
    { config: { access: { permission: 'user:read' } }, schema: { tags: ['users'], summary: 'The members of the pharmacy', response: { 200: memberListResponseSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listMembers(q, ctx)),
  );

  r.post(
    '/api/users/invite',
    {
      config: { access: { permission: 'user:create' }, idempotent: true },
      schema: { tags: ['users'], summary: 'Invite a member (emails a one-time link)', body: inviteMemberSchema, response: { 201: invitationResponseSchema } },
    },
    async (request, reply) => sendNow(await app.inTenant(request, reply, (q, ctx) => inviteMember(q, ctx, request.body, mail), { status: 201 })),
  );

  r.post(
    '/api/users/:id/resend-invite',
    {
      config: { access: { permission: 'user:create' } },
      schema: { tags: ['users'], summary: 'Send a new invitation link', params: userIdParamsSchema, response: { 200: invitationResponseSchema } },
    },
    async (request, reply) => sendNow(await app.inTenant(request, reply, (q, ctx) => resendInvite(q, ctx, request.params.id, mail))),
  );

  r.patch(
    '/api/users/:id',
    {
      config: { access: { permission: 'user:update' } },
      schema: { tags: ['users'], summary: 'Edit, deactivate or reactivate a member', params: userIdParamsSchema, body: patchMemberSchema, response: { 200: memberResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => patchMember(q, ctx, request.params.id, request.body)),
  );
};
