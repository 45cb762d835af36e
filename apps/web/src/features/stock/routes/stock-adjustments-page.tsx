import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function StockAdjustmentsPage() {
  return <PlaceholderScreen screen="stockAdjustments" />;
}
