import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contactIdParamsSchema, contactListQuerySchema, contactListResponseSchema, contactSchema, createContactSchema } from '@pharmapoint/domain/contacts';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { createContact, getContact, listContacts } from './contacts.service.ts';

const tags = ['contacts'];
/** The till reads and adds clients with pos:access; suppliers need contact or supplier permissions (checked in the service). */
const CONTACT_READ = { anyOf: ['contact:read', 'pos:access', 'sales:create', 'supplier:read'] } as const;
const CONTACT_CREATE = { anyOf: ['contact:create', 'pos:access', 'sales:create', 'supplier:create'] } as const;

/** Contacts: customers (clients at the till) and suppliers. Contracts in packages/domain/src/contacts.ts. */
export const registerContacts: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/contacts',
    {
      config: { access: CONTACT_READ },
      schema: { tags, summary: 'Contacts by type, searched by name or phone (at most 5 suggestions)', querystring: contactListQuerySchema, response: { 200: contactListResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listContacts(q, ctx, request.query)),
  );
  r.get(
    '/api/contacts/:id',
    { config: { access: CONTACT_READ }, schema: { tags, summary: 'One contact', params: contactIdParamsSchema, response: { 200: contactSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getContact(q, ctx, request.params.id)),
  );
  r.post(
    '/api/contacts',
    {
      config: { access: CONTACT_CREATE, idempotent: true },
      schema: { tags, summary: 'Add a client or supplier', body: createContactSchema, response: { 201: contactSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => createContact(q, ctx, request.body), { status: 201 }),
  );
};
