import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function AllSalesPage() {
  return <PlaceholderScreen screen="allSales" />;
}
