import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function StockTransfersPage() {
  return <PlaceholderScreen screen="stockTransfers" />;
}
