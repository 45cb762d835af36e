import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function PurchasesViewPage() {
  return <PlaceholderScreen screen="purchasesView" />;
}
