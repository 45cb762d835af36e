import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { newClientFormSchema, type Contact, type CreateContactInput, type NewClientFormValues } from '@pharmapoint/domain/contacts';
import { CONTACT_FIELD_NAMES, ContactFields, ContactFormAlert } from '@/components/contact-fields';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { applyServerErrors } from '@/components/ui/form';
import { api } from '@/lib/api';
import { toast } from '@/lib/toast';
import { newUuid } from '@/lib/idempotency';

export interface AddClientDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The cart holds DDA products: location and full address are required (seed 001 section 5). */
  ddaInCart?: boolean;
  /** The client was saved: the till selects it at once. */
  onSaved: (client: Contact) => void;
  /** What the cashier typed in the search box, to start the name or phone with. */
  initialText?: string;
}

const EMPTY: NewClientFormValues = { name: '', phone: '', email: '', location: '', address: '', notes: '' };

/** What the search box held: digits go to the phone, anything else to the name. */
function startValues(text: string | undefined): NewClientFormValues {
  const t = text?.trim() ?? '';
  if (!t) return EMPTY;
  return /^[+\d\s-]+$/.test(t) ? { ...EMPTY, phone: t } : { ...EMPTY, name: t };
}

export function createClient(body: CreateContactInput, idempotencyKey: string): Promise<Contact> {
  return api.post<Contact>('/api/contacts', body, { headers: { 'Idempotency-Key': idempotencyKey } });
}

/**
 * Add New Client (seed 001 sections 2 and 5): name and phone required, location and full address too when the cart
 * holds DDA products; the phone is saved normalised (a 10-digit 0... number as 254...). The request carries an
 * Idempotency-Key made when the dialog opens, so a double click or a retry after a lost answer adds one client.
 */
export function AddClientDialog(props: AddClientDialogProps) {
  // Mounted on every opening: the form starts from the search text and the request from a new Idempotency-Key.
  return props.open ? <OpenAddClientDialog {...props} /> : null;
}

function OpenAddClientDialog({ open, onOpenChange, ddaInCart = false, onSaved, initialText }: AddClientDialogProps) {
  const { t } = useTranslation('posClients');
  const queryClient = useQueryClient();
  const schema = useMemo(() => newClientFormSchema(ddaInCart), [ddaInCart]);
  const form = useForm<NewClientFormValues, unknown, CreateContactInput>({
    resolver: zodResolver(schema),
    defaultValues: startValues(initialText),
  });
  const { handleSubmit, setError } = form;
  const [key] = useState(newUuid);
  const [serverError, setServerError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (body: CreateContactInput) => createClient(body, key),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['pos', 'clients'] });
    },
  });

  async function onValid(body: CreateContactInput) {
    setServerError(null);
    try {
      const client = await save.mutateAsync(body);
      toast.success(t('addClient.saved', { name: client.name }));
      onSaved(client);
      onOpenChange(false);
    } catch (error) {
      const message = applyServerErrors(error, setError, (path) => CONTACT_FIELD_NAMES.find((f) => f === path) ?? null);
      setServerError(t('addClient.failed', { message }));
    }
  }

  const pending = save.isPending;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}
      title={t('addClient.title')}
      description={t('addClient.description')}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form="pos-add-client-form" loading={pending}>
            {t('addClient.save')}
          </Button>
        </>
      }
    >
      <form id="pos-add-client-form" onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate className="space-y-4">
        {ddaInCart ? (
          <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-800">{t('addClient.ddaNotice')}</p>
        ) : null}
        <ContactFields
          form={form}
          locationRequired={ddaInCart}
          labels={{
            name: t('addClient.name'),
            phone: t('addClient.phone'),
            phoneHint: t('addClient.phoneHint'),
            email: t('addClient.email'),
            location: t('addClient.location'),
            address: t('addClient.address'),
            notes: t('addClient.notes'),
          }}
        />
        <ContactFormAlert message={serverError} />
      </form>
    </Dialog>
  );
}
