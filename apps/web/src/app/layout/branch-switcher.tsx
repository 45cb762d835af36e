import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Building2 } from 'lucide-react';
import type { MeResponse } from '@pharmapoint/domain/auth';
import { switchBranch } from '@/features/auth/api/auth';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';

/** localStorage key of the last chosen branch (seed 000 section 6, Other rules). */
export const LAST_BRANCH_KEY = 'pp_last_branch';

function readLastBranch(): string | null {
  try {
    return localStorage.getItem(LAST_BRANCH_KEY);
  } catch {
    return null;
  }
}

/** The current branch, and a switcher over the branches this user is allowed. */
export function BranchSwitcher({ me }: { me: MeResponse }) {
  const { t } = useTranslation('shell');
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const restored = useRef(false);
  const branches = me.allowedBranches;

  async function choose(branchId: string, quiet = false) {
    if (branchId === me.branch?.id) return;
    setBusy(true);
    try {
      await switchBranch(branchId);
      try {
        localStorage.setItem(LAST_BRANCH_KEY, branchId);
      } catch {
        // Not remembered; the switch still applies.
      }
      // Every branch-scoped screen reloads its data.
      await queryClient.invalidateQueries();
      if (!quiet) toast.success(t('branch.switched', { name: branches.find((b) => b.id === branchId)?.name ?? '' }));
    } catch (error) {
      if (!quiet) toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  // Return to the branch chosen last time, when the server's default differs and it is still allowed.
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const last = readLastBranch();
    if (last && last !== me.branch?.id && branches.some((b) => b.id === last) && !me.isDemo) void choose(last, true);
  });

  if (branches.length <= 1) {
    return (
      <p className="flex items-center gap-1.5 text-xs text-slate-300">
        <Building2 className="size-3.5" aria-hidden="true" />
        <span className="sr-only">{t('branch.label')}: </span>
        {me.branch?.name ?? t('branch.none')}
      </p>
    );
  }
  return (
    <div>
      <label htmlFor="branch-switcher" className="sr-only">
        {t('branch.label')}
      </label>
      <select
        id="branch-switcher"
        value={me.branch?.id ?? ''}
        disabled={busy}
        onChange={(event) => void choose(event.target.value)}
        className="h-8 w-full rounded-md border border-white/20 bg-white/10 px-2 text-xs text-white focus:outline-none focus:ring-2 focus:ring-white/40"
      >
        {me.branch ? null : <option value="">{t('branch.none')}</option>}
        {branches.map((branch) => (
          <option key={branch.id} value={branch.id} className="text-slate-900">
            {branch.name}
          </option>
        ))}
      </select>
    </div>
  );
}
