import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function ExpensesReportPage() {
  return <PlaceholderScreen screen="expensesReport" />;
}
