import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { canAccessPOS, isAdminSubject, roleDefaultPermissions } from '@pharmapoint/domain/permissions';
import { useMe } from '@/features/auth/api/get-me';
import { usePermissions } from '@/features/auth/hooks/use-permissions';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { PageHeader } from '@/components/ui/page-header';
import { Card } from '@/components/ui/card';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TBody, THead, Td, Th, Tr } from '@/components/ui/table';
import { toast } from '@/lib/toast';
import '@/features/debug/debug-catalogue';

function YesNo({ value }: { value: boolean }) {
  const { t } = useTranslation('debug');
  return <Badge tone={value ? 'success' : 'danger'}>{value ? t('yes') : t('no')}</Badge>;
}

/** Who am I and what may I do: user info, expected vs actual permissions, POS checks and the raw data. */
export default function PermissionDebuggerPage() {
  const { t } = useTranslation('debug');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const meQuery = useMe();
  const { me, subject, can } = usePermissions();
  if (!me || !subject) return null;

  const role = me.membership?.role ?? (me.isDemo ? 'demo' : 'user');
  const expected = isAdminSubject(subject) ? ['*'] : [...roleDefaultPermissions(role)];
  const actual = me.permissions;
  const all = [...new Set([...expected, ...actual])].sort();
  const posChecks = [
    { key: 'canAccessPOS', value: canAccessPOS(subject) },
    { key: 'hasPosAccessFlag', value: Boolean(me.membership?.hasPosAccess) },
    { key: 'posPermission', value: actual.includes('pos:access') || actual.includes('*') },
    { key: 'isAdmin', value: isAdminSubject(subject) },
    { key: 'routeAllowed', value: can('pos:access') },
  ];

  function testPos() {
    if (canAccessPOS(subject!)) {
      toast.success(t('posGranted'));
      void navigate('/pos');
    } else toast.error(t('posDenied'));
  }

  async function clearAndRelogin() {
    queryClient.clear();
    try {
      for (const key of Object.keys(localStorage)) if (key.startsWith('pp_')) localStorage.removeItem(key);
      sessionStorage.clear();
    } catch {
      // Storage may be unavailable; signing out still clears the session.
    }
    await logout();
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            <Button variant="outline" onClick={testPos}>
              {t('testPos')}
            </Button>
            <Button variant="outline" onClick={() => void clearAndRelogin()}>
              {t('clearCaches')}
            </Button>
            <Button onClick={() => void meQuery.refetch()} loading={meQuery.isFetching}>
              {t('common:actions.refresh')}
            </Button>
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title={t('userInfo')}>
          <dl className="grid grid-cols-[10rem_1fr] gap-y-1 text-sm">
            <dt className="text-slate-500">{t('fields.name')}</dt>
            <dd>{me.user.displayName || me.user.name}</dd>
            <dt className="text-slate-500">{t('fields.email')}</dt>
            <dd>{me.user.email}</dd>
            <dt className="text-slate-500">{t('fields.role')}</dt>
            <dd>{role}</dd>
            <dt className="text-slate-500">{t('fields.owner')}</dt>
            <dd>
              <YesNo value={Boolean(me.membership?.isOwner)} />
            </dd>
            <dt className="text-slate-500">{t('fields.demo')}</dt>
            <dd>
              <YesNo value={me.isDemo} />
            </dd>
            <dt className="text-slate-500">{t('fields.operator')}</dt>
            <dd>
              <YesNo value={me.user.isPlatformOperator} />
            </dd>
            <dt className="text-slate-500">{t('fields.pharmacy')}</dt>
            <dd>{me.pharmacy?.name ?? '—'}</dd>
            <dt className="text-slate-500">{t('fields.branch')}</dt>
            <dd>{me.branch?.name ?? '—'}</dd>
            <dt className="text-slate-500">{t('fields.explicit')}</dt>
            <dd>{me.membership?.explicitPermissions ? t('explicitList', { count: me.membership.explicitPermissions.length }) : t('roleDefaults')}</dd>
          </dl>
        </Card>
        <Card title={t('posChecks')}>
          <ul className="space-y-2 text-sm">
            {posChecks.map((check) => (
              <li key={check.key} className="flex items-center justify-between">
                <span>{t(`checks.${check.key}`)}</span>
                <YesNo value={check.value} />
              </li>
            ))}
          </ul>
        </Card>
      </div>
      <Card title={t('comparison')} flush>
        <Table caption={t('comparison')}>
          <THead>
            <Tr>
              <Th>{t('permission')}</Th>
              <Th>{t('expected')}</Th>
              <Th>{t('actual')}</Th>
            </Tr>
          </THead>
          <TBody>
            {all.map((permission) => (
              <Tr key={permission}>
                <Th scope="row" className="font-mono text-xs font-normal">
                  {permission}
                </Th>
                <Td>
                  <YesNo value={expected.includes(permission) || expected.includes('*')} />
                </Td>
                <Td>
                  <YesNo value={actual.includes(permission) || actual.includes('*')} />
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </Card>
      <Card title={t('raw')}>
        <pre className="max-h-96 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">{JSON.stringify(me, null, 2)}</pre>
      </Card>
    </div>
  );
}
