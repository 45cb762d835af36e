import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function PurchaseReturnsPage() {
  return <PlaceholderScreen screen="purchaseReturns" />;
}
