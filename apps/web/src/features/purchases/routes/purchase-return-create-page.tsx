import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function PurchaseReturnCreatePage() {
  return <PlaceholderScreen screen="purchaseReturnCreate" />;
}
