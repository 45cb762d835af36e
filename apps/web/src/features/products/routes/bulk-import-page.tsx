import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Download, FileCheck2, Upload } from 'lucide-react';
import {
  autoMapping,
  IMPORT_FIELDS,
  IMPORT_HEADERS,
  IMPORT_MAX_ROWS,
  IMPORT_MODES,
  type ImportField,
  type ImportMapping,
  type ImportMode,
  type ImportProgress,
  type ImportResult,
  type ImportRowError,
} from '@pharmapoint/domain/product-import';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PageHeader } from '@/components/ui/page-header';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Select } from '@/components/ui/select';
import { StatCard } from '@/components/ui/stat-card';
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table';
import { errorMessage } from '@/lib/api';
import { formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useSettings } from '@/features/settings/api/settings';
import { IMPORT_TEMPLATE_HREF, runImport } from '@/features/products/api/import';
import { mappedValues, parseCsv, previewErrors, type CsvTable } from '@/features/products/components/csv-preview';

const PREVIEW_ROWS = 10;
const PREVIEW_FIELDS: ImportField[] = ['name', 'sku', 'category', 'branch', 'sellingPrice', 'purchasePrice', 'openingQuantity', 'batchNumber', 'expiryDate'];
const ERRORS_SHOWN = 200;

interface LoadedFile {
  name: string;
  text: string;
  table: CsvTable;
}

/** /app/products/bulk-import: CSV upload, template, column mapping, preview, row errors, progress, mode. */
export default function BulkImportPage() {
  const { t } = useTranslation('products');
  const { isDemo } = usePermissions();
  const settings = useSettings();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [mode, setMode] = useState<ImportMode>('all-or-nothing');
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [running, setRunning] = useState<'check' | 'import' | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const categories = useMemo(() => settings.data?.settings.categories ?? [], [settings.data]);

  const browserErrors = useMemo(() => (file ? previewErrors(file.table, mapping, categories) : []), [file, mapping, categories]);
  const badRows = new Set(browserErrors.map((e) => e.row));

  async function onFile(selected: File | undefined) {
    setResult(null);
    setServerError(null);
    setProgress(null);
    setFileError(null);
    if (!selected) {
      setFile(null);
      return;
    }
    if (!/\.csv$/i.test(selected.name) && !/csv|text\/plain|excel/.test(selected.type)) {
      setFile(null);
      setFileError(t('import.notCsv'));
      return;
    }
    const text = await selected.text();
    const table = parseCsv(text);
    if (table.error) {
      setFile(null);
      setFileError(t('import.malformed', { reason: table.error }));
      return;
    }
    if (table.headers.length === 0 || table.rows.length === 0) {
      setFile(null);
      setFileError(t('import.emptyFile'));
      return;
    }
    if (table.rows.length > IMPORT_MAX_ROWS) {
      setFile(null);
      setFileError(t('import.tooManyRows', { max: formatNumber(IMPORT_MAX_ROWS) }));
      return;
    }
    setFile({ name: selected.name, text, table });
    setMapping(autoMapping(table.headers));
  }

  async function send(dryRun: boolean) {
    if (!file || isDemo) return;
    setRunning(dryRun ? 'check' : 'import');
    setServerError(null);
    setResult(null);
    setProgress({ type: 'progress', phase: 'validating', done: 0, total: file.table.rows.length });
    try {
      const outcome = await runImport(file.text, { mode, dryRun, mapping }, setProgress);
      setResult(outcome);
      if (!dryRun && outcome.imported > 0) {
        toast.success(t('import.done', { count: outcome.imported }));
        await queryClient.invalidateQueries({ queryKey: ['products'] });
      } else if (!dryRun) toast.error(t('import.nothingImported'));
    } catch (error) {
      setServerError(errorMessage(error));
      setProgress(null);
    } finally {
      setRunning(null);
    }
  }

  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : progress?.phase === 'done' ? 100 : 0;
  const headerOptions = (file?.table.headers ?? []).filter(Boolean).map((h) => ({ value: h, label: h }));

  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={
          <Link to="/app/products" className="inline-flex items-center gap-1 hover:text-primary">
            <ArrowLeft className="size-4" aria-hidden="true" />
            {t('form.backToProducts')}
          </Link>
        }
        title={t('import.title')}
        description={t('import.description')}
        actions={
          <a href={IMPORT_TEMPLATE_HREF} download className={buttonClasses('outline')}>
            <Download className="size-4" aria-hidden="true" />
            {t('import.template')}
          </a>
        }
      />

      <Card title={t('import.step1')} description={t('import.step1Hint', { max: formatNumber(IMPORT_MAX_ROWS) })}>
        <div className="grid gap-4 md:grid-cols-2">
          <Field label={t('import.file')} error={fileError ?? undefined} hint={file ? t('import.fileSummary', { name: file.name, count: file.table.rows.length }) : undefined}>
            <Input ref={fileInput} type="file" accept=".csv,text/csv" className="h-auto py-2" onChange={(e) => void onFile(e.target.files?.[0])} />
          </Field>
          <Field label={t('import.mode')} hint={t(`import.modeHint.${mode}`)}>
            <Select value={mode} options={IMPORT_MODES.map((m) => ({ value: m, label: t(`import.modes.${m}`) }))} onChange={(e) => setMode(e.target.value as ImportMode)} />
          </Field>
        </div>
      </Card>

      {file ? (
        <>
          <Card title={t('import.step2')} description={t('import.step2Hint')}>
            <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
              {IMPORT_FIELDS.map((field) => (
                <Field key={field} label={IMPORT_HEADERS[field]} required={field === 'name'}>
                  <Select
                    value={mapping[field] ?? ''}
                    placeholder={t('import.notImported')}
                    options={headerOptions}
                    onChange={(e) =>
                      setMapping((current) => {
                        const next = { ...current };
                        if (e.target.value) next[field] = e.target.value;
                        else delete next[field];
                        return next;
                      })
                    }
                  />
                </Field>
              ))}
            </div>
          </Card>

          <Card title={t('import.step3')} description={t('import.previewHint', { shown: Math.min(PREVIEW_ROWS, file.table.rows.length), total: file.table.rows.length })} flush>
            <Table caption={t('import.previewCaption')}>
              <THead>
                <Tr>
                  <Th numeric>{t('import.row')}</Th>
                  {PREVIEW_FIELDS.map((f) => (
                    <Th key={f}>{IMPORT_HEADERS[f]}</Th>
                  ))}
                  <Th>{t('import.check')}</Th>
                </Tr>
              </THead>
              <TBody>
                {file.table.rows.slice(0, PREVIEW_ROWS).map((record) => {
                  const values = mappedValues(file.table, record.cells, mapping);
                  return (
                    <Tr key={record.row}>
                      <Td numeric>{record.row}</Td>
                      {PREVIEW_FIELDS.map((f) => (
                        <Td key={f} className="max-w-48 truncate">
                          {values[f] ?? ''}
                        </Td>
                      ))}
                      <Td>{badRows.has(record.row) ? <Badge tone="danger">{t('import.rowError')}</Badge> : <Badge tone="success">{t('import.rowOk')}</Badge>}</Td>
                    </Tr>
                  );
                })}
              </TBody>
            </Table>
            {browserErrors.length > 0 ? (
              <div className="border-t border-slate-100 p-4">
                <p className="mb-2 text-sm font-medium text-amber-800" role="status">
                  {t('import.browserErrors', { count: browserErrors.length, rows: badRows.size })}
                </p>
                <ErrorTable errors={browserErrors} caption={t('import.browserErrorsCaption')} />
              </div>
            ) : (
              <p className="border-t border-slate-100 p-4 text-sm text-emerald-700" role="status">
                {t('import.browserOk', { count: file.table.rows.length })}
              </p>
            )}
          </Card>

          <Card title={t('import.step4')}>
            <div className="flex flex-wrap items-center gap-3">
              <Button variant="outline" icon={<FileCheck2 className="size-4" aria-hidden="true" />} loading={running === 'check'} disabled={running !== null || !mapping.name || isDemo} onClick={() => void send(true)}>
                {t('import.checkFile')}
              </Button>
              <Button icon={<Upload className="size-4" aria-hidden="true" />} loading={running === 'import'} disabled={running !== null || !mapping.name || isDemo} onClick={() => void send(false)}>
                {t('import.submit')}
              </Button>
              {isDemo ? <p className="text-sm text-slate-600">{t('form.demoDisabled')}</p> : null}
            </div>
            {progress ? (
              <div className="mt-4">
                <ProgressBar
                  value={percent}
                  label={t('import.progressLabel')}
                  valueText={t(`import.phase.${progress.phase}`, { done: formatNumber(progress.done), total: formatNumber(progress.total) })}
                />
              </div>
            ) : null}
            {serverError ? (
              <p role="alert" className="mt-4 text-sm font-medium text-red-600">
                {serverError}
              </p>
            ) : null}
          </Card>

          {result ? <ResultCard result={result} /> : null}
        </>
      ) : (
        <EmptyState title={t('import.noFile')} description={t('import.noFileHint')} />
      )}
    </div>
  );
}

function ResultCard({ result }: { result: ImportResult }) {
  const { t } = useTranslation('products');
  const title = result.dryRun ? t('import.checkResult') : t('import.result');
  return (
    <Card title={title}>
      <p className="mb-4 text-sm text-slate-700" role="status">
        {result.dryRun
          ? t('import.dryRunSummary', { imported: result.imported, total: result.total, skipped: result.skipped })
          : result.mode === 'all-or-nothing' && result.errors.length > 0
            ? t('import.allOrNothingRefused', { count: result.errors.length })
            : t('import.summary', { imported: result.imported, total: result.total, skipped: result.skipped })}
      </p>
      <div className="mb-4 grid gap-3 sm:grid-cols-4">
        <StatCard label={t('import.rowsInFile')} value={formatNumber(result.total)} />
        <StatCard label={result.dryRun ? t('import.wouldImport') : t('import.imported')} value={formatNumber(result.imported)} tone="positive" />
        <StatCard label={t('import.skipped')} value={formatNumber(result.skipped)} tone={result.skipped > 0 ? 'warning' : 'neutral'} />
        <StatCard label={t('import.productsCreated')} value={formatNumber(result.productsCreated)} />
      </div>
      {result.errors.length > 0 ? <ErrorTable errors={result.errors} caption={t('import.serverErrorsCaption')} /> : null}
    </Card>
  );
}

function ErrorTable({ errors, caption }: { errors: ImportRowError[]; caption: string }) {
  const { t } = useTranslation('products');
  return (
    <>
      <Table caption={caption} showCaption>
        <THead>
          <Tr>
            <Th numeric>{t('import.row')}</Th>
            <Th>{t('import.field')}</Th>
            <Th>{t('import.message')}</Th>
          </Tr>
        </THead>
        <TBody>
          {errors.slice(0, ERRORS_SHOWN).map((error, index) => (
            <Tr key={`${error.row}:${error.field}:${index}`}>
              <Td numeric>{t('import.rowNumber', { row: error.row })}</Td>
              <Td>{(IMPORT_HEADERS as Record<string, string>)[error.field] ?? error.field}</Td>
              <Td>{error.message}</Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      {errors.length > ERRORS_SHOWN ? <p className="mt-2 text-xs text-slate-500">{t('import.moreErrors', { count: errors.length - ERRORS_SHOWN })}</p> : null}
    </>
  );
}
