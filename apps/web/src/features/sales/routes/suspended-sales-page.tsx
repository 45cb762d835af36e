import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function SuspendedSalesPage() {
  return <PlaceholderScreen screen="suspendedSales" />;
}
