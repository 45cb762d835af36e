import { lazyScreen } from '@/app/lazy-screen';

/**
 * /app/reports/expenses: the route's chunk only loads the report's own (`expenses-report-screen.tsx`), so the app's entry lists one file
 * for this route instead of every module the report uses (the till's first-load budget counts that list).
 */
const Report = lazyScreen(() => import('@/features/reports/routes/expenses-report-screen'));

export default function ExpensesReportPage() {
  return <Report />;
}
