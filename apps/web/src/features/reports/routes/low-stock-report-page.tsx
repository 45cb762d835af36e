import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function LowStockReportPage() {
  return <PlaceholderScreen screen="lowStockReport" />;
}
