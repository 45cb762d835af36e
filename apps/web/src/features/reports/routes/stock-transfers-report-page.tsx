import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function StockTransfersReportPage() {
  return <PlaceholderScreen screen="stockTransfersReport" />;
}
