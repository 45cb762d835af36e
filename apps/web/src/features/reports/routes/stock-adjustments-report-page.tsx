import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function StockAdjustmentsReportPage() {
  return <PlaceholderScreen screen="stockAdjustmentsReport" />;
}
