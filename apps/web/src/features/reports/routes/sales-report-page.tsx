import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function SalesReportPage() {
  return <PlaceholderScreen screen="salesReport" />;
}
