import { useRef, useState } from 'react';
import Papa from 'papaparse';
import { useTranslation } from 'react-i18next';
import { Download, Upload } from 'lucide-react';
import { CONTACT_CSV_COLUMNS, CONTACT_IMPORT_MAX_ROWS, contactCsvRow, type ContactImportRowError, type ContactListQueryInput, type ContactType } from '@pharmapoint/domain/contacts';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ApiError, errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { fetchAllContacts, useImportContacts } from '../api/contacts';
import { useIdempotencyKey } from '@/lib/idempotency';

/** Save text as a file in the browser. */
export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Export CSV: every contact of the filter (all pages), the columns of the import. */
export function ExportContactsButton({ query }: { query: Omit<ContactListQueryInput, 'limit' | 'offset'> }) {
  const { t } = useTranslation('contacts');
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="outline"
      loading={busy}
      icon={<Download className="size-4" aria-hidden="true" />}
      onClick={async () => {
        setBusy(true);
        try {
          const contacts = await fetchAllContacts(query);
          downloadText(`contacts-${new Date().toISOString().slice(0, 10)}.csv`, Papa.unparse(contacts.map(contactCsvRow), { columns: [...CONTACT_CSV_COLUMNS] }));
          toast.success(t('csv.exported', { count: contacts.length }));
        } catch (error) {
          toast.error(errorMessage(error));
        } finally {
          setBusy(false);
        }
      }}
    >
      {t('csv.export')}
    </Button>
  );
}

/** Import CSV: the file read in the browser, every row checked by the server; all rows or none, with every row problem shown. */
export function ImportContactsButton({ defaultType }: { defaultType: ContactType }) {
  const { t } = useTranslation('contacts');
  const input = useRef<HTMLInputElement>(null);
  const importer = useImportContacts();
  const keys = useIdempotencyKey();
  const [problems, setProblems] = useState<{ message: string; rows: ContactImportRowError[] } | null>(null);

  async function read(file: File) {
    const text = await file.text();
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy' });
    const rows = parsed.data.slice(0, CONTACT_IMPORT_MAX_ROWS + 1);
    if (rows.length === 0) {
      setProblems({ message: t('csv.emptyFile'), rows: [] });
      return;
    }
    try {
      const body = { defaultType, rows };
      // The same file sent again after a lost answer imports once; a new file (or the same one after a success) is new.
      const result = await importer.mutateAsync({ body, key: keys.keyFor(body) });
      keys.renew();
      toast.success(t('csv.imported', { count: result.created }));
    } catch (error) {
      const details = error instanceof ApiError ? (error.details as { rows?: ContactImportRowError[] } | undefined) : undefined;
      setProblems({ message: errorMessage(error), rows: details?.rows ?? [] });
    }
  }

  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        className="sr-only"
        aria-label={t('csv.chooseFile')}
        tabIndex={-1}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void read(file);
        }}
      />
      <Button variant="outline" loading={importer.isPending} icon={<Upload className="size-4" aria-hidden="true" />} onClick={() => input.current?.click()}>
        {t('csv.import')}
      </Button>
      <Dialog open={problems !== null} onOpenChange={(open) => (open ? undefined : setProblems(null))} title={t('csv.problemsTitle')} description={problems?.message}>
        {problems && problems.rows.length > 0 ? (
          <ul className="max-h-80 space-y-1 overflow-y-auto text-sm" aria-label={t('csv.problemsTitle')}>
            {problems.rows.map((row, index) => (
              <li key={index} className="rounded border border-red-100 bg-red-50 px-2 py-1 text-red-800">
                {t('csv.rowProblem', { row: row.row, field: row.field, message: row.message })}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="mt-3 text-xs text-slate-600">{t('csv.columnsHint', { columns: CONTACT_CSV_COLUMNS.join(', ') })}</p>
      </Dialog>
    </>
  );
}
