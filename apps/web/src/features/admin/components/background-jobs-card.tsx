import { useState } from 'react';
import type { JobsOverview } from '@pharmapoint/domain/jobs';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RotateCcw } from 'lucide-react';
import { api, errorMessage } from '@/lib/api';
import { formatDateTime, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { Card } from '@/components/ui/card';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { Pagination } from '@/components/ui/pagination';
import { Table, TBody, THead, Td, Th, Tr } from '@/components/ui/table';
import '@/features/admin/admin-catalogue';

const PAGE_SIZE = 10;
const KNOWN_KINDS = ['email', 'sms', 'stk_push', 'stk_status', 'etims'];

/** The operator's view of the background jobs: counts by kind and state, and the dead jobs with Retry. */
export function BackgroundJobsCard() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['admin', 'jobs', page],
    queryFn: () => api.get<JobsOverview>('/api/admin/jobs', { query: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE } }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const retry = useMutation({
    mutationFn: (id: string) => api.post<{ job: { id: string; kind: string; state: 'pending' } }>(`/api/admin/jobs/${id}/retry`),
    onSuccess: () => {
      toast.success(t('jobs.retried'));
      void queryClient.invalidateQueries({ queryKey: ['admin', 'jobs'] });
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
  const kindLabel = (kind: string) => (KNOWN_KINDS.includes(kind) ? t(`jobs.kinds.${kind}`) : kind);

  const counts = query.data?.counts ?? [];
  const dead = query.data?.dead ?? { total: 0, items: [] };
  // A page emptied by retries: go back to the last page that has rows.
  const lastPage = Math.max(1, Math.ceil(dead.total / PAGE_SIZE));
  if (query.data && page > lastPage) setPage(lastPage);

  return (
    <Card title={t('jobs.title')} description={t('jobs.description')} flush>
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <div className="space-y-4">
          {counts.length === 0 ? (
            <p className="px-4 py-3 text-sm text-slate-600">{t('jobs.none')}</p>
          ) : (
            <Table caption={t('jobs.countsCaption')}>
              <THead>
                <Tr>
                  <Th>{t('jobs.kind')}</Th>
                  <Th numeric>{t('jobs.states.pending')}</Th>
                  <Th numeric>{t('jobs.states.running')}</Th>
                  <Th numeric>{t('jobs.states.done')}</Th>
                  <Th numeric>{t('jobs.states.dead')}</Th>
                </Tr>
              </THead>
              <TBody>
                {counts.map((row) => (
                  <Tr key={row.kind}>
                    <Th scope="row" className="font-medium">
                      {kindLabel(row.kind)}
                    </Th>
                    <Td numeric>{formatNumber(row.pending)}</Td>
                    <Td numeric>{formatNumber(row.running)}</Td>
                    <Td numeric>{formatNumber(row.done)}</Td>
                    <Td numeric>{row.dead > 0 ? <Badge tone="danger">{formatNumber(row.dead)}</Badge> : formatNumber(row.dead)}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
          <div>
            <h3 className="px-4 text-sm font-semibold text-slate-900">{t('jobs.deadTitle')}</h3>
            {dead.total === 0 ? (
              <p className="px-4 py-3 text-sm text-slate-600">{t('jobs.noDead')}</p>
            ) : (
              <>
                <Table caption={t('jobs.deadTitle')}>
                  <THead>
                    <Tr>
                      <Th>{t('jobs.kind')}</Th>
                      <Th numeric>{t('jobs.attempts')}</Th>
                      <Th>{t('jobs.lastError')}</Th>
                      <Th>{t('jobs.created')}</Th>
                      <Th>{t('jobs.failed')}</Th>
                      <Th>
                        <span className="sr-only">{t('jobs.actions')}</span>
                      </Th>
                    </Tr>
                  </THead>
                  <TBody>
                    {dead.items.map((job) => (
                      <Tr key={job.id}>
                        <Th scope="row" className="font-medium">
                          {kindLabel(job.kind)}
                        </Th>
                        <Td numeric>{t('jobs.attemptsOf', { attempts: job.attempts, max: job.maxAttempts })}</Td>
                        <Td className="max-w-md break-words text-slate-700">{job.lastError ?? '—'}</Td>
                        <Td>{formatDateTime(job.createdAt)}</Td>
                        <Td>{job.finishedAt ? formatDateTime(job.finishedAt) : '—'}</Td>
                        <Td>
                          <Button
                            variant="outline"
                            size="sm"
                            icon={<RotateCcw className="size-4" aria-hidden="true" />}
                            loading={retry.isPending && retry.variables === job.id}
                            disabled={retry.isPending}
                            onClick={() => retry.mutate(job.id)}
                          >
                            {t('jobs.retry')}
                          </Button>
                        </Td>
                      </Tr>
                    ))}
                  </TBody>
                </Table>
                {dead.total > PAGE_SIZE ? <Pagination className="px-4" page={page} pageSize={PAGE_SIZE} total={dead.total} onPageChange={setPage} /> : null}
              </>
            )}
          </div>
        </div>
      )}
    </Card>
  );
}
