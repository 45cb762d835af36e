import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  contactIdParamsSchema,
  contactListQuerySchema,
  contactListResponseSchema,
  contactSchema,
  contactSummarySchema,
  createContactSchema,
  importContactsResponseSchema,
  importContactsSchema,
  updateContactSchema,
} from '@pharmapoint/domain/contacts';
import type { ModuleRegistrar } from '../../platform/module.ts';
import { createContact, getContact, getContactSummary, importContacts, listContacts, updateContact } from './contacts.service.ts';

const tags = ['contacts'];
/** The till reads and adds clients with pos:access; suppliers need contact or supplier permissions (checked in the service). */
const CONTACT_READ = { anyOf: ['contact:read', 'pos:access', 'sales:create', 'supplier:read'] } as const;
const CONTACT_CREATE = { anyOf: ['contact:create', 'pos:access', 'sales:create', 'supplier:create'] } as const;
const CONTACT_UPDATE = { anyOf: ['contact:update', 'supplier:update'] } as const;

/** Contacts: customers (clients at the till), suppliers and others. Contracts in packages/domain/src/contacts.ts. */
export const registerContacts: ModuleRegistrar = (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/contacts',
    {
      config: { access: CONTACT_READ },
      schema: {
        tags,
        summary: 'Contacts by type and status, searched by name or phone (at most 5 suggestions unless paged=true)',
        querystring: contactListQuerySchema,
        response: { 200: contactListResponseSchema },
      },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => listContacts(q, ctx, request.query)),
  );
  r.get(
    '/api/contacts/:id',
    { config: { access: CONTACT_READ }, schema: { tags, summary: 'One contact', params: contactIdParamsSchema, response: { 200: contactSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getContact(q, ctx, request.params.id)),
  );
  r.get(
    '/api/contacts/:id/summary',
    {
      config: { access: CONTACT_READ },
      schema: { tags, summary: "A contact's page: sales, payments and prescriptions, or purchases and payments, and the balance", params: contactIdParamsSchema, response: { 200: contactSummarySchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => getContactSummary(q, ctx, request.params.id)),
  );
  r.post(
    '/api/contacts',
    {
      config: { access: CONTACT_CREATE, idempotent: true },
      schema: { tags, summary: 'Add a client, supplier or other contact', body: createContactSchema, response: { 201: contactSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => createContact(q, ctx, request.body), { status: 201 }),
  );
  r.patch(
    '/api/contacts/:id',
    { config: { access: CONTACT_UPDATE }, schema: { tags, summary: 'Edit, deactivate or reactivate a contact', params: contactIdParamsSchema, body: updateContactSchema, response: { 200: contactSchema } } },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => updateContact(q, ctx, request.params.id, request.body)),
  );
  r.post(
    '/api/contacts/import',
    {
      config: { access: { anyOf: ['contact:create', 'supplier:create'] }, idempotent: true },
      schema: { tags, summary: 'Import contacts from CSV rows: all or none, with every row problem', body: importContactsSchema, response: { 201: importContactsResponseSchema } },
    },
    async (request, reply) => app.inTenant(request, reply, (q, ctx) => importContacts(q, ctx, request.body), { status: 201 }),
  );
};
