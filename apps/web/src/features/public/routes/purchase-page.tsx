import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function PurchasePage() {
  return <PlaceholderScreen screen="purchase" />;
}
