import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Building2 } from 'lucide-react';
import { api, errorMessage } from '@/lib/api';
import { formatDate, formatNumber } from '@/lib/format';
import { PageHeader } from '@/components/ui/page-header';
import { Card } from '@/components/ui/card';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { StatCard } from '@/components/ui/stat-card';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { LoadingState } from '@/components/ui/loading-state';
import { Table, TBody, THead, Td, Th, Tr } from '@/components/ui/table';
import { BackgroundJobsCard } from '@/features/admin/components/background-jobs-card';

/** One pharmacy as GET /api/admin/pharmacies lists it (fields the dashboard reads; others are ignored). */
export interface AdminPharmacy {
  id: string;
  name: string;
  isDemo?: boolean;
  createdAt?: string | null;
  subscription?: { status?: string | null; statusMessage?: string | null } | null;
  usage?: { products?: number; users?: number; branches?: number; transactions?: number } | null;
}

async function getPharmacies(): Promise<AdminPharmacy[]> {
  const response = await api.get<AdminPharmacy[] | { pharmacies: AdminPharmacy[] }>('/api/admin/pharmacies');
  return Array.isArray(response) ? response : (response.pharmacies ?? []);
}

function statusTone(status: string | null | undefined): BadgeTone {
  if (status === 'active') return 'success';
  if (status === 'trial') return 'info';
  if (status === 'expired' || status === 'inactive') return 'danger';
  return 'neutral';
}

export default function SaasDashboardPage() {
  const { t } = useTranslation('admin');
  const query = useQuery({ queryKey: ['admin', 'pharmacies'], queryFn: getPharmacies });
  const pharmacies = query.data ?? [];
  const count = (status: string) => pharmacies.filter((p) => p.subscription?.status === status).length;

  return (
    <div className="space-y-6">
      <PageHeader title={t('saas.title')} description={t('saas.description')} />
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <StatCard label={t('saas.total')} value={formatNumber(pharmacies.length)} icon={<Building2 className="size-5" />} />
            <StatCard label={t('saas.active')} value={formatNumber(count('active'))} tone="positive" />
            <StatCard label={t('saas.trial')} value={formatNumber(count('trial'))} tone="primary" />
            <StatCard label={t('saas.expired')} value={formatNumber(count('expired'))} tone="negative" />
          </div>
          {pharmacies.length === 0 ? (
            <EmptyState title={t('saas.empty')} description={t('saas.emptyDescription')} />
          ) : (
            <Card title={t('saas.caption')} flush>
              <Table caption={t('saas.caption')}>
                <THead>
                  <Tr>
                    <Th>{t('saas.pharmacy')}</Th>
                    <Th>{t('saas.status')}</Th>
                    <Th numeric>{t('saas.products')}</Th>
                    <Th numeric>{t('saas.users')}</Th>
                    <Th numeric>{t('saas.branches')}</Th>
                    <Th numeric>{t('saas.transactions')}</Th>
                    <Th>{t('saas.created')}</Th>
                  </Tr>
                </THead>
                <TBody>
                  {pharmacies.map((pharmacy) => (
                    <Tr key={pharmacy.id}>
                      <Th scope="row" className="font-medium">
                        {pharmacy.name} {pharmacy.isDemo ? <Badge tone="warning">{t('saas.demo')}</Badge> : null}
                      </Th>
                      <Td>
                        <Badge tone={statusTone(pharmacy.subscription?.status)}>{pharmacy.subscription?.statusMessage ?? pharmacy.subscription?.status ?? '—'}</Badge>
                      </Td>
                      <Td numeric>{formatNumber(pharmacy.usage?.products)}</Td>
                      <Td numeric>{formatNumber(pharmacy.usage?.users)}</Td>
                      <Td numeric>{formatNumber(pharmacy.usage?.branches)}</Td>
                      <Td numeric>{formatNumber(pharmacy.usage?.transactions)}</Td>
                      <Td>{formatDate(pharmacy.createdAt)}</Td>
                    </Tr>
                  ))}
                </TBody>
              </Table>
            </Card>
          )}
        </>
      )}
      <BackgroundJobsCard />
    </div>
  );
}
