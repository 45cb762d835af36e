import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function PurchaseFormPage() {
  return <PlaceholderScreen screen="purchaseForm" />;
}
